// A constructor's thread writes `g` under `m`; `main` creates no thread itself. Its accesses
// are not before every other thread (analysis::protection): a read under the lock, or a write
// without it, is not in a single-threaded phase.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

extern int __VERIFIER_nondet_int(void);

int g, k;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_t h;

static void *writer(void *arg) {
    usleep(100000);
    pthread_mutex_lock(&m);
    g = 1;
    k = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

__attribute__((constructor)) static void start(void) {
    pthread_create(&h, 0, writer, 0);
}

int main(void) {
    k = 5; // no lock: the writer already runs
    pthread_join(h, 0);
    pthread_mutex_lock(&m);
    if (__VERIFIER_nondet_int())
        assert(g == 0); // FAILS! the writer set g to 1
    else
        assert(k == 5); // FAILS! the writer overwrote main's write
    assert(g >= 0 && g <= 1); // PROVED
    pthread_mutex_unlock(&m);
    return 0;
}
