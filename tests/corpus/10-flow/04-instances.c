// Instances of one thread function created in a loop are not ordered with each other: one
// instance may read the other's first store between its own two stores.
#include <assert.h>
#include <pthread.h>

int x = 0;

static void *worker(void *arg) {
    (void)arg;
    x = 0;
    x = 1;
    int v = x;
    assert(v == 0 || v == 1); // PROVED
    assert(v == 1); // FAILS! another instance may store 0 in between
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    return 0;
}
