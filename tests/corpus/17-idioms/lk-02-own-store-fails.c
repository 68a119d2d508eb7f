// Issue 17, idiom 4: neighbours of lk-01-own-store.c where another thread's store really comes
// between a thread's own store and its load (rules/README.md, LockedOwnStore, "must not
// fire"): the other thread writes without the lock or under another lock, the lock is
// released and taken again between the store and the load, the store is on one branch only,
// and two instances of one function write under the lock.
#include <assert.h>
#include <pthread.h>

int x, y, z, w, u;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;

static void *reader(void *arg) {
    pthread_mutex_lock(&m);
    x = 1;
    assert(x == 1); // FAILS! the writer stores x without the lock
    y = 1;
    assert(y == 1); // FAILS! the writer stores y under another lock
    z = 1;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    assert(z == 1); // FAILS! m was released after z = 1
    if (arg)
        w = 1;
    assert(w == 1); // FAILS! w = 1 only on one branch (arg is 0)
    pthread_mutex_unlock(&m);
    return 0;
}

static void *writer(void *arg) {
    (void)arg;
    x = 2;
    pthread_mutex_lock(&other);
    y = 2;
    pthread_mutex_unlock(&other);
    pthread_mutex_lock(&m);
    z = 2;
    w = 2;
    pthread_mutex_unlock(&m);
    return 0;
}

static void *twin(void *arg) {
    pthread_mutex_lock(&m);
    u = (int)(long)arg;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    int v = u;
    pthread_mutex_unlock(&m);
    assert(v == (int)(long)arg); // FAILS! the other instance may write u in between
    return 0;
}

int main(void) {
    pthread_t a, b, t[2];
    pthread_create(&a, 0, reader, 0);
    pthread_create(&b, 0, writer, 0);
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], 0, twin, (void *)i);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
