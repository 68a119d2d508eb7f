// The neighbour of ra-22: a release store read by an acquire load (or seq_cst on both sides, the
// order of `_Atomic` operators) synchronises (C11 5.1.2.4p11), so what the producer wrote before
// the store happens before what the consumer reads after the wait loop. What it writes after
// the store is not published.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on `late` only.
#include <pthread.h>
#include <stdatomic.h>

int data, other, late;
atomic_int flag;
_Atomic int ready;

static void *producer(void *arg) {
    (void)arg;
    data = 42;                                             // NO-RACE: before the release
    atomic_store_explicit(&flag, 1, memory_order_release); // NO-RACE: atomic
    other = 5;                                             // NO-RACE: before the seq_cst store
    ready = 1;                                             // NO-RACE: atomic (seq_cst)
    late = 1;                                              // RACE!: after every store
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    while (!atomic_load_explicit(&flag, memory_order_acquire)) { // NO-RACE: atomic
    }
    int v = data; // NO-RACE: published by the release store
    while (!ready) { // NO-RACE: atomic (seq_cst)
    }
    v += other; // NO-RACE: published by the seq_cst store
    v += late;  // RACE!: written after the last store
    pthread_join(t, 0);
    return v;
}
