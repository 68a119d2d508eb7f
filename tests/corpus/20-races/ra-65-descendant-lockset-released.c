// Where a create inside a critical section orders nothing (the neighbours of ra-64): main holds
// `rw` only for reading when it creates `reader`, so `reader`'s read lock does not wait for it;
// main waits on a condition variable with `mutex` after it creates `waiter`, which gives the
// mutex up before main's write; main's loop unlocks and locks again before its write.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on `shared_read` between main and
// `reader`, on `waited` between main and `waiter`, and on `relocked` between main and `looper`.
#include <pthread.h>

static int shared_read, waited, relocked, ready;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

static void *reader(void *arg) {
    (void)arg;
    if (pthread_rwlock_rdlock(&rw) == 0)
        pthread_rwlock_unlock(&rw);
    shared_read = 2; // RACE!: main holds `rw` shared, which lets this reader in
    return 0;
}

static void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mutex);
    ready = 1;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&mutex);
    waited = 2; // RACE!: main waits on the condition, which gives the mutex up
    return 0;
}

static void *looper(void *arg) {
    (void)arg;
    pthread_mutex_lock(&other);
    pthread_mutex_unlock(&other);
    relocked = 2; // RACE!: main unlocks `other` in its loop before writing
    return 0;
}

int main(int argc, char **argv) {
    pthread_t r, w, l;
    (void)argv;
    if (pthread_rwlock_rdlock(&rw) == 0) {
        pthread_create(&r, 0, reader, 0);
        shared_read = 1; // RACE!: `reader` takes `rw` shared beside main
        pthread_rwlock_unlock(&rw);
        pthread_join(r, 0);
    }
    pthread_mutex_lock(&mutex);
    pthread_create(&w, 0, waiter, 0);
    while (!ready)
        pthread_cond_wait(&cond, &mutex);
    waited = 1; // RACE!: after the wait gave the mutex to `waiter`
    pthread_mutex_unlock(&mutex);
    pthread_join(w, 0);
    pthread_mutex_lock(&other);
    pthread_create(&l, 0, looper, 0);
    for (int i = 0; i < argc; i++) {
        pthread_mutex_unlock(&other);
        pthread_mutex_lock(&other);
    }
    relocked = 1; // RACE!: `other` was released in the loop
    pthread_mutex_unlock(&other);
    pthread_join(l, 0);
    return 0;
}
