// `pthread_create` fails when the process may create no more threads (`ulimit -u`): a
// program that reads its result gets no proof.
//PROOF: gap pthread_create
#include <assert.h>
#include <pthread.h>

static void *work(void *arg) { return arg; }

int main(void) {
    pthread_t t;
    int r = pthread_create(&t, 0, work, 0);
    assert(r == 0); // FAILS! under `ulimit -u` the creation fails
    if (r == 0)
        pthread_join(t, 0);
    return 0;
}
