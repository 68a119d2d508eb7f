// Locks: accesses that hold the same mutex never race; a different mutex, or none, does not
// exclude anything.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
int guarded;   // always under `m`
int mixed;     // under `m` in one thread, under `other` in the other
int bare;      // under `m` in one thread, under nothing in the other

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    guarded++; // NO-RACE: both threads hold `m`
    mixed = 1; // RACE!: the other thread holds `other`
    bare = 1; // RACE!: the other thread holds no lock
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    guarded++; // NO-RACE
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&other);
    mixed = 2; // RACE!
    pthread_mutex_unlock(&other);
    bare = 2; // RACE!
    pthread_join(t, 0);
    return 0;
}
