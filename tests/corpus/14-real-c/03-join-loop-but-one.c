// A thread array created in a loop and joined in a loop, except the last thread: its write may
// still be pending when main reads.
#include <assert.h>
#include <pthread.h>

int done[3];
int last;

static void *worker(void *arg) {
    int i = *(int *)arg;
    done[i] = 1;
    if (i == 2)
        last = 1;
    return 0;
}

int main(void) {
    pthread_t t[3];
    int idx[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, &idx[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    int v = last;
    assert(v == 0 || v == 1); // PROVED
    assert(v == 1);           // FAILS! the last worker is not joined
    return 0;
}
