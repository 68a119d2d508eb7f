// Lock protection (analysis::protection): every access to `g` holds `m` (main's accesses
// before it creates a thread need not), so other threads' writes reach a thread only when it
// takes `m`, as the values they held when they released it. The intermediate value 1 is never
// held at a release.
#include <assert.h>
#include <pthread.h>

int g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    g = g + 1;
    g = g - 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[4];
    g = 5; // before any thread exists: no lock needed
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], 0, worker, 0);
    pthread_mutex_lock(&m);
    assert(g == 5); // PROVED: with lock protection
    pthread_mutex_unlock(&m);
    return 0;
}
