// Two threads increment x without synchronisation: an update can be lost, so x may end at 1.
#include <assert.h>
#include <pthread.h>

int x = 0;

static void *inc(void *arg) {
    (void)arg;
    int t = x;
    x = t + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 2); // FAILS! both threads may read 0
    assert(x >= 1); // MAY-FAIL: true after the joins, but the baseline also sees main's initial 0
    return 0;
}
