// A C99 `inline` definition without `extern` is inline-only: clang does not emit it at -O0, so
// its assertion used to vanish. The truth is that of a build that keeps it (gcc -O1, or
// -fgnu89-inline; gcc -O0 fails to link the call).
#include <assert.h>
#include <pthread.h>

int g;

inline void release(void) {
    assert(g == 0); // FAILS! the thread sets g to 1 before the call
}

static inline int twice(int v) {
    return 2 * v;
}

static void *worker(void *arg) {
    g = 1;
    release();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    assert(twice(3) == 6); // PROVED
    return 0;
}
