// A handle returned by a helper (issue 35, class 7): `spawn` creates the thread into its own
// local and returns it, main joins what it returned: the join waits for that thread. A helper
// that creates two threads and returns the second's handle leaves the first unjoined.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(100000) before main's reads): a data race
// on `x` (the unjoined `first` thread's write against main's read) and a thread leak
// (`first`); none on `done` or `y`.
#include <pthread.h>
#include <unistd.h>

int done, x, y;

static void *work(void *arg) {
    (void)arg;
    done = 1; // NO-RACE: main reads it after joining the handle `spawn` returned
    return 0;
}

static void *first(void *arg) {
    (void)arg;
    x = 1; // RACE!: `spawn_two` does not return this thread's handle, nobody joins it
    return 0;
}

static void *second(void *arg) {
    (void)arg;
    y = 1; // NO-RACE: joined through the returned handle
    return 0;
}

static pthread_t spawn(void) {
    pthread_t t;
    pthread_create(&t, 0, work, 0);
    return t;
}

static pthread_t spawn_two(void) {
    pthread_t a, b;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    return b;
}

int main(void) {
    pthread_t t = spawn();
    pthread_join(t, 0);
    int d = done; // NO-RACE: after the join
    pthread_t u = spawn_two();
    pthread_join(u, 0);
    usleep(100000);
    d += y; // NO-RACE: after the join of `second`
    return d + x; // RACE!: `first` is not joined
}
