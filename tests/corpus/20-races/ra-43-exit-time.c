// Code that runs at exit (`__attribute__((destructor))`, `.fini_array`, `atexit` handlers)
// runs in the thread that returns from `main` or calls `exit`, while threads nobody joined still
// run: its accesses race with theirs (issue 35, class 5). It runs after `main`'s own code, so
// `main`'s accesses do not race with it.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(1000) before main returns): a data race
// between the worker's write of `counter` (line 18) and the destructor's read (line 26), and
// between the worker's write of `hits` (line 19) and the atexit handler's read (line 30).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int counter, hits, setup;

static void *worker(void *a) {
    (void)a;
    for (;;) {
        counter++; // RACE!: the destructor reads it while the worker runs
        hits++;    // RACE!: the atexit handler reads it while the worker runs
        usleep(10);
    }
    return 0;
}

__attribute__((destructor)) static void fini(void) {
    printf("%d %d\n", counter, setup); // RACE!: the detached worker may still write counter
}

static void report(void) {
    printf("%d\n", hits); // RACE!: the detached worker may still write hits
}

int main(void) {
    pthread_t t;
    setup = 1; // NO-RACE: main's own code runs before the exit-time code
    atexit(report);
    pthread_create(&t, 0, worker, 0);
    pthread_detach(t);
    usleep(1000);
    return 0;
}
