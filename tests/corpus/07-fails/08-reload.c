// Loading a shared variable again: after `x = g`, a branch on `x` may refine what the thread
// knows of `g`, but only while no later load or lock operation of the thread has read `g` anew,
// since another thread may have stored in between. Found by the random-program oracle
// (tests/random_threads.rs, seed 20916); both failures below were proved before.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int g = 1, h = 1, k;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *zeroer(void *arg) {
    (void)arg;
    g = 0;
    pthread_mutex_lock(&m);
    h = 2;
    pthread_mutex_unlock(&m);
    return 0;
}

static void *reloader(void *arg) {
    (void)arg;
    int x = g;
    int y = g;
    assert(x <= y); // FAILS! x reads 1, then the zeroer stores 0, then y reads 0
    return 0;
}

static void *relocker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int x = h;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    if (x == 1) {
        int y = h;
        assert(y == 1); // FAILS! the zeroer may take the lock between the two sections
    }
    pthread_mutex_unlock(&m);
    return 0;
}

// Must still prove: nobody else writes k, so a branch on what was loaded refines it.
static void *refiner(void *arg) {
    (void)arg;
    k = __VERIFIER_nondet_int();
    int x = k;
    if (x == 5) {
        int y = k;
        assert(y == 5); // PROVED
    }
    return 0;
}

int main(void) {
    pthread_t t[4];
    pthread_create(&t[0], 0, zeroer, 0);
    pthread_create(&t[1], 0, reloader, 0);
    pthread_create(&t[2], 0, relocker, 0);
    pthread_create(&t[3], 0, refiner, 0);
    return 0;
}
