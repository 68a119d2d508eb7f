// The README's example for `watts confirm`: two threads increment a counter without a lock,
// so one increment can be lost. The analysis reports "may fail"; `watts confirm` executes the
// program under every schedule, finds the interleaving that loses an update, and reports the
// assertion as violated with its steps.
#include <assert.h>
#include <pthread.h>

int count = 0;

void *inc(void *arg) {
    (void)arg;
    int c = count;
    count = c + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2); // FAILS! both threads may read 0
    return 0;
}
