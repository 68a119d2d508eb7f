// Join handles written by something other than pthread_create: `a = b` makes join(a) wait
// for g, so main has not seen f's store (f sleeps first, so the run fails every time).
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

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, f, 0);
    pthread_create(&b, 0, g, 0);
    a = b;
    pthread_join(a, 0);
    assert(x == 1); // FAILS! join(a) waited for g
    return 0;
}
