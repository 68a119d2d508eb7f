// Atomic sections exclude each other like one global lock; a lock named through a pointer that
// can only point to one mutex is that mutex.
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int x, y;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void __VERIFIER_atomic_update(void) {
    y = 5;
    y = 6;
}

static void *writer(void *arg) {
    pthread_mutex_t *lock = arg;
    __VERIFIER_atomic_begin();
    x = 1;
    x = 2;
    __VERIFIER_atomic_end();
    pthread_mutex_lock(lock);
    __VERIFIER_atomic_update();
    pthread_mutex_unlock(lock);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    __VERIFIER_atomic_begin();
    int v = x;
    __VERIFIER_atomic_end();
    assert(v != 1); // PROVED(constraints): atomic sections do not interleave
    pthread_mutex_lock(&m);
    int u = y;
    pthread_mutex_unlock(&m);
    assert(u != 5); // PROVED(constraints): the writer's lock pointer can only be &m
    assert(u == 6); // FAILS! the reader may come first
    return 0;
}

static void *unsynchronised(void *arg) {
    (void)arg;
    int v = x;
    // An atomic section runs while no other thread does (SV-COMP's definition), so this
    // read never sees 1; the analysis treats atomic sections as one lock, which only
    // orders them among themselves.
    assert(v != 1); // MAY-FAIL: true, but no atomic section here
    return 0;
}

int main(void) {
    pthread_t t[3];
    pthread_create(&t[0], 0, writer, &m);
    pthread_create(&t[1], 0, reader, 0);
    pthread_create(&t[2], 0, unsynchronised, 0);
    return 0;
}
