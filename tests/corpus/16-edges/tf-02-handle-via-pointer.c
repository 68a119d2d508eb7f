// A handle overwritten through a pointer: join(a) waits for g, not f.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

int x = 0;
pthread_t a, b;

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

static void put(pthread_t *to, pthread_t from) {
    *to = from;
}

int main(void) {
    pthread_t *p = &a;
    pthread_create(&a, 0, f, 0);
    pthread_create(&b, 0, g, 0);
    put(p, b);
    pthread_join(a, 0);
    assert(x == 1); // FAILS! *p = b redirected the join to g
    return 0;
}
