// With -fgnu89-inline, `extern inline` is inline-only and plain `inline` is an external
// definition: both bodies are analysed.
//PARAM: -- -fgnu89-inline
#include <assert.h>
#include <pthread.h>

int g;

extern inline void check(void) {
    assert(g == 0); // FAILS! the thread sets g to 1 before the call
}

inline int plus_one(int v) {
    return v + 1;
}

static void *worker(void *arg) {
    g = 1;
    check();
    return 0;
}

int main(void) {
    pthread_t t;
    assert(plus_one(1) == 2); // PROVED
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
