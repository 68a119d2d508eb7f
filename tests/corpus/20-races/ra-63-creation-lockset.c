// A thread that lives inside its creator's critical section (issue 36, orderings; Goblint's
// "creation lockset"): main locks `mutex`, creates `inner`, joins it and only then unlocks, so
// all of `inner` runs while main holds the mutex: `inner`'s unlocked write cannot meet
// `locker`'s write under the mutex. The racy neighbours: main's own write inside that critical
// section runs beside `inner`, and `outer` is joined after main unlocks, so `locker` may take
// the mutex while `outer` runs.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(10000) in `outer`): a data race on `shared`
// between main's write and `inner`'s, and one on `other` between `outer` and `locker`; none
// between `inner` and `locker`.
#include <pthread.h>
#include <unistd.h>

static int shared, other;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static void *locker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mutex);
    shared = 1; // NO-RACE: `inner` runs inside main's critical section
    other = 1;  // RACE!: `outer` runs after main unlocks
    pthread_mutex_unlock(&mutex);
    return 0;
}

static void *inner(void *arg) {
    (void)arg;
    shared = 2; // RACE!: main writes it in the same critical section
    return 0;
}

static void *outer(void *arg) {
    (void)arg;
    usleep(10000);
    other = 2; // RACE!: `locker` may hold the mutex now
    return 0;
}

int main(void) {
    pthread_t l, i, o;
    pthread_create(&l, 0, locker, 0);
    pthread_mutex_lock(&mutex);
    pthread_create(&i, 0, inner, 0);
    shared = 3; // RACE!: `inner` runs beside this
    pthread_join(i, 0);
    pthread_create(&o, 0, outer, 0);
    pthread_mutex_unlock(&mutex);
    pthread_join(o, 0);
    pthread_join(l, 0);
    return 0;
}
