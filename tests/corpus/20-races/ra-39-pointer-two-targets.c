// A call through a pointer that may name two functions is not inlined (issue 35, class 7; the
// neighbour of ra-36): `f` is `spawn_two` or `spawn_one`, and `spawn_two` also starts `stray`,
// which nobody joins. Taking either target alone would be wrong: `spawn_one` alone hides the
// race on `unjoined`.
// ThreadSanitizer (gcc 12 -fsanitize=thread, `which` is 1): a data race on `unjoined` (`stray`'s
// write against main's read) and a thread leak (`stray`); none on `joined`, which watts reports
// (both targets are analysed apart, so their threads are children of detached functions).
#include <pthread.h>
#include <unistd.h>

int which = 1;
int joined, unjoined;

static void *worker(void *arg) {
    (void)arg;
    joined = 1; // MAY-RACE: main reads it after the join (a false alarm: `f` has two targets)
    return 0;
}

static void *stray(void *arg) {
    (void)arg;
    unjoined = 1; // RACE!: nobody joins this thread
    return 0;
}

static void spawn_one(pthread_t *t) {
    pthread_create(t, 0, worker, 0);
}

static void spawn_two(pthread_t *t) {
    pthread_t s;
    pthread_create(&s, 0, stray, 0);
    pthread_create(t, 0, worker, 0);
}

static void run(void (*f)(pthread_t *), pthread_t *t) {
    f(t);
}

int main(void) {
    pthread_t t;
    run(which ? spawn_two : spawn_one, &t);
    pthread_join(t, 0);
    usleep(100000);
    int j = joined; // MAY-RACE: after the join (a false alarm, see above)
    return j + unjoined; // RACE!: `stray` is not joined
}
