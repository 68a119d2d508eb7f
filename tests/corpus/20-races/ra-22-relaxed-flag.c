// Relaxed atomics publish nothing (C11 5.1.2.4, 7.17.3; issue 35, class 2): the flag is atomic,
// so its own accesses do not race, but a relaxed store read by a relaxed load (or an acquire
// load reading a relaxed store, or a relaxed counter) orders no other access, so the data
// written before it races with the reads after the wait loop. ra-23 is the release/acquire
// neighbour.
// ThreadSanitizer (gcc 12 -fsanitize=thread): data races on `data` and on `more`; none on the
// flags.
#include <pthread.h>
#include <stdatomic.h>

int data, more;
atomic_int flag, half;

static void *producer(void *arg) {
    (void)arg;
    data = 42;                                             // RACE!: the flag is relaxed
    atomic_store_explicit(&flag, 1, memory_order_relaxed); // NO-RACE: atomic
    more = 7;                                              // RACE!: the store is relaxed
    atomic_store_explicit(&half, 1, memory_order_relaxed); // NO-RACE: atomic
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    while (!atomic_load_explicit(&flag, memory_order_relaxed)) { // NO-RACE: atomic
    }
    int v = data; // RACE!: relaxed on both sides
    while (!atomic_load_explicit(&half, memory_order_acquire)) { // NO-RACE: atomic
    }
    v += more; // RACE!: an acquire load of a relaxed store orders nothing
    pthread_join(t, 0);
    return v;
}
