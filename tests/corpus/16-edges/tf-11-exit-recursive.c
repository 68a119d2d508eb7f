// pthread_exit in a recursive callee: the call that is not inlined ends the thread.
#include <assert.h>
#include <pthread.h>

int x = 0;

static void down(int n) {
    if (n > 0)
        down(n - 1);
    else
        pthread_exit(0);
}

static void *f(void *arg) {
    (void)arg;
    down(3);
    x = 1;
    return 0;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, f, 0);
    pthread_join(a, 0);
    assert(x == 1); // FAILS! down(0) ended the thread
    return 0;
}
