// The neighbour of ra-72 where narrowing by the calling context must not hide a race: each
// thread passes its own pointer, but both pointers were loaded from one global slot that main
// set to the same block, and the thread entries pass their argument on through two helpers.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on the block's `n` in `bump` between
// the two workers.
#include <pthread.h>
#include <stdlib.h>

struct counter {
    int n;
};

static struct counter *slot;

static void bump(struct counter *c) {
    c->n++; // RACE!: both workers reach the same block
}

static void relay(struct counter *c, int twice) {
    bump(c);
    if (twice)
        bump(c);
}

static void *worker(void *arg) {
    relay((struct counter *)arg, 1);
    return 0;
}

int main(void) {
    pthread_t x, y;
    slot = malloc(sizeof *slot);
    if (!slot)
        return 1;
    slot->n = 0;
    pthread_create(&x, 0, worker, slot);
    pthread_create(&y, 0, worker, slot);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return slot->n;
}
