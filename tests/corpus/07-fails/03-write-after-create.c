// The thread writes after it was created; main reads without joining.
#include <assert.h>
#include <pthread.h>

int x = 0;
int y = 0;

static void *worker(void *arg) {
    (void)arg;
    x = 5;
    y = x + 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int v = x;
    assert(v == 0); // FAILS! the thread may already have stored 5
    int w = y;
    assert(w == 0); // FAILS!
    assert(w <= 6); // PROVED
    pthread_join(t, 0);
    return 0;
}
