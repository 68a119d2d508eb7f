// A recursive mutex (glibc's static initialiser) is taken twice by its owner; the
// interpreter would wait forever there, so the exploration gives up instead of proving.
//PROOF: gap locks a mutex it holds
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
int depth;

int main(void) {
    pthread_mutex_lock(&m);
    depth = 1;
    pthread_mutex_lock(&m);
    depth = 2;
    assert(depth == 1); // FAILS! the second lock returns at once
    pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}
