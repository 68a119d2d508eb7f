// `free` and `realloc` write the whole block (C11 7.22.3; ThreadSanitizer takes them so): a
// `free` or `realloc` in one thread and an access of the block in another that nothing orders
// are a data race (issue 35, class 1). After the join, freeing is ordered.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(1000) before each free): a data race
// between the worker's read of `shared->x` and main's `free`, and between the worker's read of
// `grown->x` and main's `realloc`; none on `joined`. (The `realloc` comes before the `free`: the
// other way round its new block may reuse the freed one, and TSan then pairs the worker's read
// of the freed block with the `realloc`.)
#include <pthread.h>
#include <stdlib.h>

struct node {
    int x;
};

struct node *shared, *grown, *joined;

static void *worker(void *arg) {
    (void)arg;
    int v = shared->x; // RACE!: main frees the block without waiting
    v += grown->x;     // RACE!: main reallocates the block without waiting
    v += joined->x;    // NO-RACE: main frees this block after the join
    return (void *)(long)v;
}

int main(void) {
    pthread_t t;
    shared = malloc(sizeof *shared);
    grown = malloc(sizeof *grown);
    joined = malloc(sizeof *joined);
    if (!shared || !grown || !joined)
        return 1;
    shared->x = 1; // NO-RACE: before the create
    grown->x = 2;  // NO-RACE: before the create
    joined->x = 3; // NO-RACE: before the create
    pthread_create(&t, 0, worker, 0);
    struct node *bigger = realloc(grown, 2 * sizeof *grown); // RACE!: reads and frees the block
    free(shared); // RACE!: the worker may still read the block
    pthread_join(t, 0);
    free(joined); // NO-RACE: after the join
    free(bigger); // NO-RACE: a block the worker never sees
    return 0;
}
