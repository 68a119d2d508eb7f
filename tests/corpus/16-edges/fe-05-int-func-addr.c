// A thread entry whose address goes through an integer: the created thread runs `worker`,
// whose assertion must be analysed (before, `worker` was never seen as a thread).
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

int g;

static void *worker(void *arg) {
    assert(g == 0); // FAILS! main writes 1 before the create
    return 0;
}

uintptr_t entry = (uintptr_t)&worker;

int main(void) {
    pthread_t t;
    g = 1;
    pthread_create(&t, 0, (void *(*)(void *))entry, 0);
    pthread_join(t, 0);
    assert(g == 1); // MAY-FAIL: an entry read from an integer may be any function, one outside the program too (its stand-in writes g)
    return 0;
}
