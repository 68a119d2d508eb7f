// A robust mutex breaks mutual exclusion twice over: B ends holding `m`, so the next lock
// returns EOWNERDEAD and acquires it (B never overwrote its store before "releasing"), and a
// mutex left inconsistent is never acquired again (ENOTRECOVERABLE: C's and D's critical
// sections overlap). A program that makes a mutex robust gets no lock facts at all.
// gcc -O0 -pthread: both assertions fail on every run (the sleeps order the threads).
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static int x, y;
static pthread_mutex_t m, n;

static void *B(void *a) { (void)a; pthread_mutex_lock(&m); x = 1; return 0; } // dies holding m
static void *A(void *a) {
    (void)a;
    usleep(100000);
    pthread_mutex_lock(&m); // EOWNERDEAD: acquired
    int v = x;
    assert(v != 1); // FAILS! B's store is seen although B never released m
    pthread_mutex_unlock(&m);
    return 0;
}

static void *C(void *a) { (void)a; pthread_mutex_lock(&n); y = 1; usleep(200000); y = 2; pthread_mutex_unlock(&n); return 0; }
static void *D(void *a) {
    (void)a;
    usleep(100000);
    pthread_mutex_lock(&n); // ENOTRECOVERABLE: returns without the lock
    int v = y;
    pthread_mutex_unlock(&n);
    assert(v != 1); // FAILS! C's intermediate value, inside its "critical section"
    return 0;
}

static void *E(void *a) { (void)a; pthread_mutex_lock(&n); return 0; } // dies holding n

int main(void) {
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_setrobust(&at, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&m, &at);
    pthread_mutex_init(&n, &at);
    pthread_t a, b, c, d, e;
    pthread_create(&b, 0, B, 0);
    pthread_create(&a, 0, A, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_create(&e, 0, E, 0);
    pthread_join(e, 0);
    pthread_mutex_lock(&n);   // EOWNERDEAD: acquired
    pthread_mutex_unlock(&n); // not made consistent: unrecoverable from now on
    pthread_create(&c, 0, C, 0);
    pthread_create(&d, 0, D, 0);
    pthread_join(c, 0);
    pthread_join(d, 0);
    return 0;
}
