// A mutex inside a heap block (issue 35, class 9): `shared` is allocated once, and both workers
// update its counter under its own mutex, reached through the pointer they share: no race. The
// racy neighbour: each worker also locks the mutex of its own block (blocks allocated in a
// loop, one per thread) around an update of the global `total`: two different mutexes, so
// the updates race.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on `total`; none on `count`.
#include <pthread.h>
#include <stdlib.h>

struct ctx {
    int count;
    pthread_mutex_t lock;
};

static struct ctx *shared;
static int total;

static void *worker(void *arg) {
    struct ctx *own = arg;
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&shared->lock);
        shared->count++; // NO-RACE: under the shared block's mutex
        pthread_mutex_unlock(&shared->lock);
        pthread_mutex_lock(&own->lock);
        total++; // RACE!: each thread holds the mutex of its own block
        pthread_mutex_unlock(&own->lock);
    }
    return 0;
}

int main(void) {
    shared = malloc(sizeof *shared);
    if (!shared)
        return 1;
    shared->count = 0;
    pthread_mutex_init(&shared->lock, 0);
    pthread_t t[2];
    struct ctx *own[2];
    for (int i = 0; i < 2; i++) {
        own[i] = malloc(sizeof *own[i]);
        if (!own[i])
            return 1;
        pthread_mutex_init(&own[i]->lock, 0);
    }
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, own[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    return shared->count + total; // NO-RACE: after the joins
}
