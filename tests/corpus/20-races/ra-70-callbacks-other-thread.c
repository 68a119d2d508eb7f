// Callbacks run in the threads of the program (issue 36), the neighbour that must still race:
// the signal handler runs in whichever thread takes the signal (here main, which raises it),
// while `worker` writes the same counter without a lock. The assumption that a callback runs in
// the program's own threads keeps it racing with every other thread.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on `ticks` between `on_signal` (in
// main) and `worker`.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static int ticks, mine;

static void on_signal(int sig) {
    (void)sig;
    ticks++; // RACE!: `worker` writes it at the same time
    mine = 1; // RACE!: two signals may be taken by main and `worker` at once
}

static void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 1000; i++)
        ticks++; // RACE!
    return 0;
}

int main(void) {
    pthread_t t;
    signal(SIGUSR1, on_signal);
    pthread_create(&t, 0, worker, 0);
    raise(SIGUSR1);
    pthread_join(t, 0);
    return ticks;
}
