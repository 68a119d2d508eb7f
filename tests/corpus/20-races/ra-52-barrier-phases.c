// Barrier phases (issue 36, orderings): main and two workers each wait twice on `b`, whose
// count is 3, the number of threads that wait on it; so the k-th wait of every thread comes
// before the return of the k-th wait of every other (POSIX). The workers' writes before the
// first phase are read by main after it; main's write between the phases is read by the
// workers after the second; the workers' writes after the last phase race with each other.
// The neighbour, ra-51, has barriers where the rule must not fire.
// ThreadSanitizer (gcc 12 -fsanitize=thread, 5 runs): a data race on `last` only.
#include <pthread.h>

static pthread_barrier_t b;
static int slot1, slot2, between, last;

static void *worker1(void *arg) {
    (void)arg;
    slot1 = 1; // NO-RACE
    pthread_barrier_wait(&b);
    pthread_barrier_wait(&b);
    int r = between; // NO-RACE
    last = r; // RACE!: both workers write it after the last phase
    return 0;
}

static void *worker2(void *arg) {
    (void)arg;
    slot2 = 2; // NO-RACE
    pthread_barrier_wait(&b);
    int r = slot1; // NO-RACE: written before the first phase
    pthread_barrier_wait(&b);
    r += between; // NO-RACE
    last = r; // RACE!
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_barrier_init(&b, 0, 3);
    pthread_create(&t1, 0, worker1, 0);
    pthread_create(&t2, 0, worker2, 0);
    pthread_barrier_wait(&b);
    between = slot1 + slot2; // NO-RACE
    pthread_barrier_wait(&b);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return last; // NO-RACE: after the joins
}
