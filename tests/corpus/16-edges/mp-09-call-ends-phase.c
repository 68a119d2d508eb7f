// `main`'s single-threaded phase ends, for the analysis, at any call it cannot see into (it
// might create a thread): the value `main` wrote while alone must be published there, since
// the next lock it takes reads what was published.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

int g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    pthread_mutex_lock(&m);
    g = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    g = -5; // alone: no lock needed
    usleep(1);
    pthread_mutex_lock(&m);
    assert(g >= -5 && g <= 1); // PROVED
    assert(g >= 0);            // FAILS! no thread exists yet: g is -5
    pthread_mutex_unlock(&m);
    pthread_create(&t, 0, worker, 0);
    return 0;
}
