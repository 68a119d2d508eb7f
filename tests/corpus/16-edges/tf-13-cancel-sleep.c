// pthread_cancel of a thread blocked in sleep (a cancellation point) before its store.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static int x = 0;

static void *f(void *arg) {
    (void)arg;
    sleep(5);
    x = 1;
    return 0;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, f, 0);
    usleep(100000);
    pthread_cancel(a);
    pthread_join(a, 0);
    assert(x == 1); // FAILS! f was cancelled in sleep
    return 0;
}
