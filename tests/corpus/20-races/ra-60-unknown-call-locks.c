// Calls of functions without a definition inside a critical section (issue 35): under the race
// check's assumption (README "Data races": such a function touches only what its arguments
// point to, during the call), one given no pointer releases no lock, so `count` stays
// protected across `log_event(1)`. The racy neighbour: `hand_back(&m)` gets the mutex and
// releases it (its definition, seen only by the ThreadSanitizer build, unlocks it), so what
// follows it is not protected.
// ThreadSanitizer (gcc 12 -fsanitize=thread, the two functions defined below for its build
// only): a data race on `tally` (the writes after `hand_back`); none on `count`.
#include <pthread.h>

void log_event(int code);
void hand_back(pthread_mutex_t *m);

#ifdef __SANITIZE_THREAD__
// Defined under other names and aliased, so that watts, which takes a body it finds in the
// source but not in the IR for a dropped one, sees plain declarations.
#include <unistd.h>
static void quiet(int code) { (void)code; }
static void give_back(pthread_mutex_t *m) {
    pthread_mutex_unlock(m);
    usleep(1000);
}
void log_event(int code) __attribute__((alias("quiet")));
void hand_back(pthread_mutex_t *m) __attribute__((alias("give_back")));
#endif

static int count, tally;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    log_event(1);
    count++; // NO-RACE: `log_event` gets no pointer, so it releases nothing
    hand_back(&m);
    tally++; // RACE!: `hand_back` may have released the mutex (it does)
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return count + tally; // NO-RACE: after the joins
}
