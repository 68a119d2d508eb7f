// One create site reached by two threads: the handle names whichever thread was created
// last, so the join need not wait for the one that stores.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

int x = 0;
pthread_t h;

static void *f(void *arg) {
    if (arg) {
        usleep(200000);
        x = 1;
    }
    return 0;
}

static void start(void *arg) {
    pthread_create(&h, 0, f, arg);
}

static void *first(void *arg) {
    (void)arg;
    start((void *)1);
    return 0;
}

static void *second(void *arg) {
    (void)arg;
    usleep(50000);
    start((void *)0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(h, 0);
    assert(x == 1); // FAILS! h holds the handle of the thread that second created
    return 0;
}
