// Pointers narrowed by the calling context (issue 36, merged pointers): `bump` is called by
// each thread with its own counter and by both with `shared`. The points-to analysis merges
// its parameter over all three, but in each inlined call it is the argument of that call, so
// only `shared` is touched by both threads.
// ThreadSanitizer (gcc 12 -fsanitize=thread): one data race, on `shared.n` in `bump`, between
// `left` and `right`; none on `a` or `b`.
#include <pthread.h>

struct counter {
    int n;
};

static struct counter a, b, shared;

static void bump(struct counter *c) {
    struct counter *p = c;
    p->n++; // RACE!: with `shared` from both threads
}

static void *left(void *arg) {
    (void)arg;
    bump(&a);
    bump(&shared);
    return 0;
}

static void *right(void *arg) {
    (void)arg;
    bump(&b);
    bump(&shared);
    return 0;
}

int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, left, 0);
    pthread_create(&y, 0, right, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return a.n + b.n; // NO-RACE: both threads are joined
}
