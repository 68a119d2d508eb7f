// A thread created by a function called through a pointer, then joined by main (issue 35,
// class 7): the join waits for it, and main's read after the join does not race. The racy
// neighbour: a second thread the same helper starts, whose handle nobody joins.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(100000) before main's reads): a data race
// on `unjoined` (the `stray` thread's write against main's read) and a thread leak (`stray`);
// none on `joined`.
// watts inlines the call through `f` (issue 35, class 7): its points-to set names `spawn` alone
// (`threads::resolve`), so the threads `spawn` creates are main's and the join orders
// `worker`. ra-39 holds the neighbour with two possible targets, where nothing is inlined.
#include <pthread.h>
#include <unistd.h>

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

static void spawn(pthread_t *t) {
    pthread_t s;
    pthread_create(t, 0, worker, 0);
    pthread_create(&s, 0, stray, 0);
}

static void run(void (*f)(pthread_t *), pthread_t *t) {
    f(t);
}

int main(void) {
    pthread_t t;
    run(spawn, &t);
    pthread_join(t, 0);
    usleep(100000);
    int j = joined; // NO-RACE: after the join
    return j + unjoined; // RACE!: `stray` is not joined
}
