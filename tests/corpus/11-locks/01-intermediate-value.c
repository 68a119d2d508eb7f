// A writer passes through an intermediate value while it holds the lock; a reader under the
// same lock never sees it (rules/README.md, LockedOverwrite). Each variant below changes one
// thing that makes the intermediate value visible, and the rule must not fire.
#include <assert.h>
#include <pthread.h>

int x, y, z, w;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;

static void *writer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x = 1; // intermediate: overwritten before the unlock
    x = 2;
    pthread_mutex_unlock(&m);
    y = 1; // written without the lock
    pthread_mutex_lock(&m);
    y = 2;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    z = 1; // the lock is released between the two stores
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    z = 2;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&other);
    w = 1; // under another lock than the reader's
    w = 2;
    pthread_mutex_unlock(&other);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int a = x;
    pthread_mutex_unlock(&m);
    assert(a != 1); // PROVED(constraints): the reader holds m; x = 1 never outlives m
    assert(a == 2); // FAILS! the reader may run first
    return 0;
}

static void *reader_y(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int b = y;
    pthread_mutex_unlock(&m);
    assert(b != 1); // FAILS! y = 1 is stored outside the lock
    return 0;
}

static void *reader_z(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int c = z;
    pthread_mutex_unlock(&m);
    assert(c != 1); // FAILS! the writer releases m between z = 1 and z = 2
    return 0;
}

static void *reader_w(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int d = w;
    pthread_mutex_unlock(&m);
    assert(d != 1); // FAILS! w is protected by another lock
    return 0;
}

static void *reader_unlocked(void *arg) {
    (void)arg;
    int a = x;
    assert(a != 1); // FAILS! the reader does not hold m
    return 0;
}

int main(void) {
    pthread_t t[6];
    pthread_create(&t[0], 0, writer, 0);
    pthread_create(&t[1], 0, reader, 0);
    pthread_create(&t[2], 0, reader_y, 0);
    pthread_create(&t[3], 0, reader_z, 0);
    pthread_create(&t[4], 0, reader_w, 0);
    pthread_create(&t[5], 0, reader_unlocked, 0);
    return 0;
}
