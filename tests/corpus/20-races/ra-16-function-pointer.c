// A thread function that calls through a pointer: the callee runs in the calling thread, at
// the call, with the locks held there.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter, unguarded;

static void bump(void) {
    counter++; // NO-RACE: every call holds `m`
    unguarded++; // RACE!: main calls it without `m`... see `plain`
}

static void plain(void) { unguarded++; } // RACE!

static void (*op)(void) = bump;
static void (*op2)(void) = plain;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    op();
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    op2();
    pthread_mutex_lock(&m);
    op();
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
