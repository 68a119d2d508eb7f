// The neighbour of ra-43: exit-time code (a destructor, an `atexit` handler) that runs after
// every thread was joined reads what the threads wrote without a race: the join orders the
// threads' accesses before `main`'s return, which runs the exit-time code (issue 35, class 5).
// ThreadSanitizer (gcc 12 -fsanitize=thread): no data race.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int counter, hits;

static void *worker(void *a) {
    (void)a;
    for (int i = 0; i < 100; i++) {
        counter++; // NO-RACE: joined before main returns
        hits++;    // NO-RACE: joined before main returns
    }
    return 0;
}

__attribute__((destructor)) static void fini(void) {
    printf("%d\n", counter); // NO-RACE: runs after the join
}

static void report(void) {
    printf("%d\n", hits); // NO-RACE: runs after the join
}

int main(void) {
    pthread_t t;
    atexit(report);
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    counter += 1; // NO-RACE: after the join, before the exit-time code
    return 0;
}
