// Branched creation (Goblint 13-privatized/71): on one path `main` creates a thread, on the
// other it writes a protected global without the lock, which is fine, since it is alone on
// that path. A later read under the lock must see that write: it was never published.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    pthread_mutex_lock(&m);
    g = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    if (__VERIFIER_nondet_int())
        pthread_create(&t, 0, worker, 0);
    else
        g = -5;
    pthread_mutex_lock(&m);
    assert(g >= 0);  // FAILS! with input 0, main wrote -5 and created nothing
    assert(g >= -5); // PROVED
    pthread_mutex_unlock(&m);
    return 0;
}
