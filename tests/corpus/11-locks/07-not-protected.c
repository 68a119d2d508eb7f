// Variants of 06-protected.c where some access to a counter does not hold its lock, or a
// thread releases the lock while the counter holds its intermediate value: protection must not
// apply (or must publish that value), and the assertions really fail.
#include <assert.h>
#include <pthread.h>

int a, b, c, d;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    a = a + 1; // a: also written below without the lock
    a = a - 1;
    b = b + 1; // b: the lock is released between the two writes
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    b = b - 1;
    c = c + 1; // c: pthread_cond_wait releases m while c is 1
    pthread_cond_wait(&cv, &m);
    c = c - 1;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&other);
    d = d + 1; // d: under another lock than the reader's
    d = d - 1;
    pthread_mutex_unlock(&other);
    return 0;
}

static void *racer(void *arg) {
    (void)arg;
    a = 1;
    a = 0;
    return 0;
}

static void *check_a(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int v = a;
    pthread_mutex_unlock(&m);
    assert(v == 0); // FAILS! racer writes a without the lock
    return 0;
}

static void *check_b(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int v = b;
    pthread_mutex_unlock(&m);
    assert(v == 0); // FAILS! worker releases m while b is 1
    return 0;
}

static void *check_c(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int v = c;
    pthread_mutex_unlock(&m);
    assert(v == 0); // FAILS! worker waits on the condition while c is 1
    return 0;
}

static void *check_d(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int v = d;
    pthread_mutex_unlock(&m);
    assert(v == 0); // FAILS! d is protected by another lock
    return 0;
}

int main(void) {
    pthread_t t[6];
    pthread_create(&t[0], 0, worker, 0);
    pthread_create(&t[1], 0, racer, 0);
    pthread_create(&t[2], 0, check_a, 0);
    pthread_create(&t[3], 0, check_b, 0);
    pthread_create(&t[4], 0, check_c, 0);
    pthread_create(&t[5], 0, check_d, 0);
    int v = a;
    assert(v == 0); // FAILS! main reads without the lock while threads run
    return 0;
}
