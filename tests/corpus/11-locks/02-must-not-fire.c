// Locking that does not exclude the intermediate value: the mutual-exclusion rule must not fire.
// (No unknown calls here: they may write any global, which would hide a wrong pruning.)
#include <assert.h>
#include <pthread.h>

int a, b;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_mutex_t locks[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
int __VERIFIER_nondet_int(void);

static void *writer(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw); // a read lock does not exclude other readers
    a = 1;
    a = 2;
    pthread_rwlock_unlock(&rw);
    int i = __VERIFIER_nondet_int() != 0; // an array of mutexes: two different locks
    pthread_mutex_lock(&locks[i]);
    b = 1;
    b = 2;
    pthread_mutex_unlock(&locks[i]);
    return 0;
}

static void *read_a(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw);
    int v = a;
    pthread_rwlock_unlock(&rw);
    assert(v != 1); // FAILS! both hold the read lock at once
    return 0;
}

static void *read_b(void *arg) {
    (void)arg;
    int j = __VERIFIER_nondet_int() != 0;
    pthread_mutex_lock(&locks[j]);
    int v = b;
    pthread_mutex_unlock(&locks[j]);
    assert(v != 1); // FAILS! maybe another mutex of the array
    return 0;
}

int main(void) {
    pthread_t t[3];
    pthread_create(&t[0], 0, writer, 0);
    pthread_create(&t[1], 0, read_a, 0);
    pthread_create(&t[2], 0, read_b, 0);
    return 0;
}
