// A helper that swaps handles through pointers, inlined: join(a) waits for g.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

int x = 0;

static void *f(void *arg) {
    (void)arg;
    usleep(200000);
    x = 1;
    return 0;
}

static void *g(void *arg) {
    (void)arg;
    return 0;
}

static void swap(pthread_t *p, pthread_t *q) {
    pthread_t t = *p;
    *p = *q;
    *q = t;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, f, 0);
    pthread_create(&b, 0, g, 0);
    swap(&a, &b);
    pthread_join(a, 0);
    assert(x == 1); // FAILS! a holds g's handle after the swap
    return 0;
}
