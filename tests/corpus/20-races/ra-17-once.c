// `pthread_once` runs its routine once, and no call returns before it finished: what the
// routine writes is ordered before whatever follows a `pthread_once` in any thread; a thread
// that reads it without calling `pthread_once` first races.
#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int config;
static int hits;

static void init(void) {
    config = 42; // RACE!: `peek` reads it without `pthread_once`
    hits++; // NO-RACE: the routine runs once
}

static void *worker(void *arg) {
    (void)arg;
    pthread_once(&once, init);
    return (void *)(long)config; // NO-RACE: after `pthread_once`
}

static void *peek(void *arg) {
    (void)arg;
    return (void *)(long)config; // RACE!: no `pthread_once` before
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_create(&c, 0, peek, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return hits; // NO-RACE
}
