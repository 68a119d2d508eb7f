// Assertions that really fail, with their loads in one cluster (both flags in one condition)
// or in two (one flag each): clustering and the meet of families must keep them unproved.
#include <assert.h>
#include <pthread.h>

int f1 = 0, f2 = 0, data = 0;

static void *one(void *arg) {
    (void)arg;
    f1 = 1;
    return 0;
}

static void *two(void *arg) {
    (void)arg;
    data = 3;
    f2 = 1;
    return 0;
}

// A failed assert() ends the thread, so each check that fails runs in its own thread.
static void *both(void *arg) {
    (void)arg;
    int p = f1;
    int q = f2;
    assert(!(p == 1 && q == 1)); // FAILS! both writers may have run
    return 0;
}

static void *first(void *arg) {
    (void)arg;
    int p = f1;
    assert(p == 0); // FAILS! one may have run
    return 0;
}

static void *second(void *arg) {
    (void)arg;
    int p = f1;
    int q = f2;
    if (q) {
        int d = data;
        assert(d == 3); // PROVED(constraints)
        assert(p == 1); // FAILS! one need not have run
    }
    return 0;
}

int main(void) {
    pthread_t t[5];
    pthread_create(&t[0], 0, one, 0);
    pthread_create(&t[1], 0, two, 0);
    pthread_create(&t[2], 0, both, 0);
    pthread_create(&t[3], 0, first, 0);
    pthread_create(&t[4], 0, second, 0);
    for (int i = 0; i < 5; i++)
        pthread_join(t[i], 0);
    return 0;
}
