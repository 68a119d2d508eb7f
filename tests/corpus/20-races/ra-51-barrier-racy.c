// Barriers that do not order what the phase rule would (issue 36, orderings), where it must not
// fire: `pair` counts 2 but four threads wait on it, so a phase may end without the writer
// (here main's ends with `third`'s wait, the others come later); `all` counts every thread that
// waits on it, but the two workers write `same` after the same phase.
// The neighbour, ra-52, orders both phases of a barrier that every thread waits on.
// ThreadSanitizer (gcc 12 -fsanitize=thread, 5 runs): a data race on `x` (the late worker's
// write against main's read after its phase) and on `same` (the two workers' writes) in every run.
#include <pthread.h>
#include <unistd.h>

static pthread_barrier_t pair, all;
static int x, same;

static void *late(void *arg) {
    (void)arg;
    usleep(200000);
    x = 1; // RACE!: main's phase of `pair` may end without this thread
    pthread_barrier_wait(&pair);
    pthread_barrier_wait(&all);
    same = 1; // RACE!: after the same phase as the other worker's write
    return 0;
}

static void *middle(void *arg) {
    (void)arg;
    usleep(100000);
    pthread_barrier_wait(&pair);
    pthread_barrier_wait(&all);
    same = 2; // RACE!
    return 0;
}

static void *third(void *arg) {
    (void)arg;
    pthread_barrier_wait(&pair);
    return 0;
}

int main(void) {
    pthread_t t1, t2, t3;
    pthread_barrier_init(&pair, 0, 2);
    pthread_barrier_init(&all, 0, 2);
    pthread_create(&t1, 0, late, 0);
    pthread_create(&t2, 0, middle, 0);
    pthread_create(&t3, 0, third, 0);
    pthread_barrier_wait(&pair);
    int r = x; // RACE!
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    pthread_join(t3, 0);
    return r;
}
