// One create site reached twice (a helper inlined twice): the handle names the second thread,
// so the join does not wait for the first one.
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

int main(void) {
    start((void *)1);
    start((void *)0);
    pthread_join(h, 0);
    assert(x == 1); // FAILS! h holds the handle of the second thread
    return 0;
}
