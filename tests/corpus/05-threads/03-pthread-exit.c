// pthread_exit ends the thread: stores after it never happen.
#include <assert.h>
#include <pthread.h>

int x = 0;

static void *worker(void *arg) {
    int stop = *(int *)arg;
    x = 1;
    if (stop)
        pthread_exit(0);
    x = 2;
    return 0;
}

int main(void) {
    pthread_t t;
    int stop = 1;
    pthread_create(&t, 0, worker, &stop);
    pthread_join(t, 0);
    int v = x;
    assert(v != 2); // PROVED: the store of 2 is unreachable
    assert(v <= 1); // PROVED
    pthread_exit(0);
}
