// An unused load of a cell before a load that matters: the analysis keeps what a load reads as
// the thread's view of the cell, so the later load's own view depends on the unused one, and
// the optimized mode must enumerate both (one cluster), as `constraints` does. Found by the
// random-program oracle (tests/random_threads.rs, seeds 1191 and 1756).
#include <assert.h>
#include <pthread.h>

int g = 2, h = 2, k = 0;

static void *reader(void *arg) {
    (void)arg;
    int unused = g;
    (void)unused;
    int v = g;
    // g is 2 (its initial value) or 0 (main's store), never 1.
    assert(v != 1); // PROVED(flow-sensitive)
    return 0;
}

static void *bumper(void *arg) {
    (void)arg;
    int a = 0, b = 0;
    if (a >= b + 1) {
        int dead = h;
        (void)dead;
    }
    int x = h;
    // x is 1 (main's store, its own view) or 4 (the other instance's store), never in between.
    if (x == 2 || x == 3)
        assert(0); // UNREACHABLE(flow-sensitive)
    h = 4;
    return 0;
}

// Must not prove: a load that really reads another thread's store after an unused one.
static void *racer(void *arg) {
    (void)arg;
    int unused = k;
    (void)unused;
    int v = k;
    assert(v == 0); // FAILS! main may store 7 first
    return 0;
}

int main(void) {
    pthread_t a, b, c, d;
    h = 1;
    pthread_create(&a, 0, reader, 0);
    pthread_create(&b, 0, bumper, 0);
    pthread_create(&c, 0, bumper, 0);
    pthread_create(&d, 0, racer, 0);
    g = 0;
    k = 7;
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    pthread_join(d, 0);
    return 0;
}
