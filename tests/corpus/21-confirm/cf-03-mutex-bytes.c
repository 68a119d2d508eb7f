// A synchronisation function writes its object's bytes: after `pthread_mutex_init` the bytes
// that a union shares with the mutex no longer hold what was written before, and after a lock
// they hold the C library's lock word. `confirm` must not report a failure of the assertions
// below from the old bytes (it once did: the bytes were left alone outside proofs).
#include <assert.h>
#include <pthread.h>

static union {
    pthread_mutex_t m;
    int first;
} u;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&u.m);
    pthread_mutex_unlock(&u.m);
    return 0;
}

int main(void) {
    pthread_t t;
    u.first = 5;
    pthread_mutex_init(&u.m, 0);
    assert(u.first != 5); // TODO: true: init zeroed the mutex (glibc, musl)
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&u.m);
    assert(u.first != 5); // TODO: true: the lock word is 1 or 2 while held
    pthread_mutex_unlock(&u.m);
    pthread_join(t, 0);
    return 0;
}
