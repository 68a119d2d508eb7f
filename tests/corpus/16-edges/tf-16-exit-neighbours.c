// The true neighbours of the hidden thread ends: stores before every point where the thread
// may end are seen after the join.
#include <assert.h>
#include <pthread.h>

static int x = 0;
static int y = 0;
static int z = 0;
static void (*quit)(void *) = pthread_exit;

static void down(int n) {
    if (n > 0)
        down(n - 1);
}

static void *f(void *arg) {
    (void)arg;
    x = 1;
    pthread_exit(0);
}

static void *g(void *arg) {
    (void)arg;
    y = 1;
    quit(0);
    return 0;
}

static void *h(void *arg) {
    (void)arg;
    z = 1;
    down(2);
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, f, 0);
    pthread_join(a, 0);
    assert(x == 1); // PROVED(constraints): the store precedes pthread_exit
    pthread_create(&b, 0, g, 0);
    pthread_join(b, 0);
    assert(y == 1); // PROVED(constraints): the store precedes the call through quit
    pthread_create(&c, 0, h, 0);
    pthread_join(c, 0);
    assert(z == 1); // PROVED(constraints): the store precedes the recursive call
    return 0;
}
