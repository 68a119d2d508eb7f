// A thread created by a `pthread_once` routine and joined by main (issue 35, class 7): the
// routine runs during main's `pthread_once` (main is the only caller), so the thread is
// main's and the join waits for it; what main reads after the join does not race. The racy
// neighbour: a thread the routine creates and nobody joins.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(100000) before main's reads): a data race
// on `unjoined` (the `stray` thread's write against main's read) and a thread leak (`stray`);
// none on `joined`.
// watts inlines the routine at main's `pthread_once` (issue 35, class 7): the call runs once
// and is the only code that names `once` and `start` (`ir::once::routines_at_their_call`), so
// the threads `start` creates are main's and the join orders `worker`. ra-38 holds the
// neighbours where the routine must not be inlined.
#include <pthread.h>
#include <unistd.h>

pthread_t worker_handle;
pthread_once_t once = PTHREAD_ONCE_INIT;
int joined, unjoined;

static void *worker(void *arg) {
    (void)arg;
    joined = 1; // NO-RACE: main reads it after the join
    return 0;
}

static void *stray(void *arg) {
    (void)arg;
    unjoined = 1; // RACE!: nobody joins this thread
    return 0;
}

static void start(void) {
    pthread_t s;
    pthread_create(&worker_handle, 0, worker, 0);
    pthread_create(&s, 0, stray, 0);
}

int main(void) {
    pthread_once(&once, start);
    pthread_join(worker_handle, 0);
    usleep(100000);
    int j = joined; // NO-RACE: after the join
    return j + unjoined; // RACE!: `stray` is not joined
}
