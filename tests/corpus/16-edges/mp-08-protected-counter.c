// The neighbours that stay proved: a counter under a lock whose intermediate value is never
// published, `main` writing before its first creation on every path, and the value written
// on a path without a creation seen by `main`'s own read under the lock.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int c, g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    pthread_mutex_lock(&m);
    c = c + 1;
    c = c - 1;
    g = 2;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    c = 5;
    if (__VERIFIER_nondet_int())
        g = 2;
    else
        g = 3;
    pthread_create(&t1, 0, worker, 0);
    if (__VERIFIER_nondet_int())
        pthread_create(&t2, 0, worker, 0);
    pthread_mutex_lock(&m);
    assert(c == 5);           // PROVED
    assert(g >= 2 && g <= 3); // PROVED
    pthread_mutex_unlock(&m);
    return 0;
}
