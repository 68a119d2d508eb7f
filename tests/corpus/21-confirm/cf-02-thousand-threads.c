// A pool of 2,000 workers created in a loop; each takes the pool lock for an update done in
// two halves under an inner lock, which `main` checks under that inner lock alone. The bug
// needs `main` and one worker: `confirm` runs a few threads far (the others wait or run to
// their end), whatever the number of the others, and follows the loop to its end.
#include <assert.h>
#include <pthread.h>

#define N 2000

static pthread_mutex_t pool = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
static int pending;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&pool);
    pthread_mutex_lock(&inner);
    pending++;
    pthread_mutex_unlock(&inner);
    pthread_mutex_lock(&inner);
    pending--;
    pthread_mutex_unlock(&inner);
    pthread_mutex_unlock(&pool);
    return 0;
}

int main(void) {
    static pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, 0);
    pthread_mutex_lock(&inner);
    assert(pending == 0); // FAILS! a worker may be between its two halves
    pthread_mutex_unlock(&inner);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
