// Create and join loops inside an outer loop: the join loop of the first round does not wait
// for the threads of the second, which run after main's store of the first round. The
// join-loop rule must not fire (its create site is reachable from the join loop).
#include <assert.h>
#include <pthread.h>

#define N 4

int z;

static void *rounds(void *arg) {
    (void)arg;
    int v = z;
    assert(v == 0); // FAILS! the second round's workers run after the first round's z = 5
    return 0;
}

int main(void) {
    pthread_t d[N];
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < N; i++)
            pthread_create(&d[i], 0, rounds, 0);
        for (int i = 0; i < N; i++)
            pthread_join(d[i], 0);
        z = 5;
    }
    return 0;
}
