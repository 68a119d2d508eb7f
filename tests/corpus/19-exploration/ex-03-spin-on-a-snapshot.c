// A thread that read a flag once and spins on its copy loops forever without touching
// memory: it never moves again, and the other threads go on. The worker's check fails
// whether or not `main` spins; the check after main's loop holds where it is reached.
//PROOF: complete
#include <assert.h>
#include <pthread.h>

int ready, data;

static void *worker(void *arg) {
    (void)arg;
    data = 42;
    ready = 1;
    assert(data == 41); // FAILS! the worker runs even while main spins
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int seen = ready;
    while (!seen) {
    }
    assert(data == 42); // PROVED(constraints): the read that left the loop saw the flag
    pthread_join(t, 0);
    return 0;
}
