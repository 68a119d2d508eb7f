// pthread_join is a cancellation point: f is cancelled while it waits for g.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static int x = 0;
static pthread_t b;

static void *g(void *arg) {
    (void)arg;
    sleep(1);
    return 0;
}

static void *f(void *arg) {
    (void)arg;
    pthread_join(b, 0);
    x = 1;
    return 0;
}

int main(void) {
    pthread_t a;
    pthread_create(&b, 0, g, 0);
    pthread_create(&a, 0, f, 0);
    usleep(100000);
    pthread_cancel(a);
    pthread_join(a, 0);
    assert(x == 1); // FAILS! f was cancelled in pthread_join
    return 0;
}
