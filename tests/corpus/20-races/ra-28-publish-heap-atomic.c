// A heap block filled, then published through a C11 atomic pointer (issue 35, classes 6 and
// 8): main fills `a` and publishes it with a release store; the worker takes it with an
// acquire load, so main's writes before the store happen before the worker's accesses (C11
// 5.1.2.4p11). The racy neighbours: main writes `a` again after publishing it, and `b` is
// published with a relaxed store, which orders nothing, so the write before it races too.
// clang moves an atomic pointer as a 64-bit integer (`load i64` of the pointer's bytes, `store
// atomic i64`): the points-to analysis follows such an integer like the pointer it moves.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(1000) in the worker before its loads; the worker
// reads `b` first, since the acquire of `a` would order main's earlier write of `b`): a
// data race on `a->late` (main's write after the release store against the worker's read) and
// on `b->value` (main's write before the relaxed store against the worker's read); none on
// `a->value`.
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

struct msg {
    int value;
    int late;
};

static struct msg *_Atomic box_a;
static struct msg *_Atomic box_b;

static void *worker(void *arg) {
    (void)arg;
    usleep(1000);
    long sum = 0;
    struct msg *b = atomic_load_explicit(&box_b, memory_order_acquire); // NO-RACE: atomic
    if (b)
        sum += b->value; // RACE!: published by a relaxed store, which orders nothing
    struct msg *a = atomic_load_explicit(&box_a, memory_order_acquire); // NO-RACE: atomic
    if (a) {
        sum += a->value; // NO-RACE: written before the release store this load read
        sum += a->late;  // RACE!: main writes it after publishing the block
    }
    return (void *)sum;
}

int main(void) {
    // Allocated before the worker starts: ThreadSanitizer counts `malloc` as a write of the
    // block, which the race check does not.
    struct msg *a = malloc(sizeof *a);
    struct msg *b = malloc(sizeof *b);
    if (!a || !b)
        return 1;
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    b->value = 2; // RACE!: the relaxed store publishes it without ordering
    atomic_store_explicit(&box_b, b, memory_order_relaxed); // NO-RACE: atomic
    a->value = 1; // NO-RACE: before the release store
    a->late = 0;  // NO-RACE: before the release store
    atomic_store_explicit(&box_a, a, memory_order_release); // NO-RACE: atomic
    a->late = 3; // RACE!: after the address escaped
    void *r;
    pthread_join(t, &r);
    free(a);
    free(b);
    return (int)(long)r;
}
