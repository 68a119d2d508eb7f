// `__attribute__((gnu_inline)) extern inline` is inline-only (never emitted as a definition):
// its body is analysed at the call; `gnu_inline` without `extern` is an external definition.
#include <assert.h>
#include <pthread.h>

int g;

__attribute__((gnu_inline)) extern inline void check(void) {
    assert(g == 0); // FAILS! the thread sets g to 1 before the call
}

__attribute__((gnu_inline)) inline int plus_one(int v) {
    return v + 1;
}

extern inline int minus_one(int v) {
    return v - 1;
}

static void *worker(void *arg) {
    g = 1;
    check();
    return 0;
}

int main(void) {
    pthread_t t;
    assert(plus_one(1) == 2);  // PROVED
    assert(minus_one(1) == 0); // PROVED
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
