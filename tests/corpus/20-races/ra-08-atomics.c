// Atomics: two atomic accesses never race; an atomic and a plain one do.
#include <pthread.h>
#include <stdatomic.h>

atomic_int counter;
int mixed;
int sync_counter;

static void *worker(void *arg) {
    (void)arg;
    atomic_fetch_add(&counter, 1); // NO-RACE: C11 atomic
    __atomic_fetch_add(&mixed, 1, __ATOMIC_RELAXED); // RACE!: main writes it plainly
    __sync_fetch_and_add(&sync_counter, 1); // NO-RACE: __sync builtin
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    mixed = 5; // RACE!
    __sync_fetch_and_add(&sync_counter, 1); // NO-RACE
    int c = atomic_load(&counter); // NO-RACE
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return c;
}
