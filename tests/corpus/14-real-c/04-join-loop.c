// Threads created in a counted loop and joined in a counted loop that covers every index: after
// the join loop, every instance has terminated (a must-join of all of them).
#include <assert.h>
#include <pthread.h>

#define N 4

int x = 0; // every worker overwrites it
int z = 0; // main stores it only after the join loop

static void *worker(void *arg) {
    (void)arg;
    int v = z;
    assert(v == 0); // PROVED(constraints): main's z = 5 comes after every worker ended
    x = 1;
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    int v = x;
    assert(v == 1); // PROVED(constraints): at least one worker overwrote the initial 0
    z = 5;
    return 0;
}
