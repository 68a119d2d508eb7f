// Callbacks run in the threads of the program (issue 36): a program that creates no thread
// hands a signal handler to `signal` and fork handlers to `pthread_atfork`. The C library runs
// them in the thread that takes the signal or calls `fork`, and here that is always main, so
// their accesses and main's are never two threads at once: not data races (a handler that
// interrupts main is a matter of signal safety, `volatile sig_atomic_t`, not of threads).
// ThreadSanitizer (gcc 12 -fsanitize=thread): no data race.
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;
static int forks, handled;

static void on_signal(int sig) {
    (void)sig;
    alarms++;  // NO-RACE: runs in main, the only thread
    handled = 1; // NO-RACE
}

static void before_fork(void) {
    forks++; // NO-RACE: runs in main, which calls fork
}

int main(void) {
    signal(SIGUSR1, on_signal);
    pthread_atfork(before_fork, 0, 0);
    handled = 0; // NO-RACE
    raise(SIGUSR1);
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    waitpid(p, 0, 0);
    forks = 0;   // NO-RACE
    alarms = 0;  // NO-RACE
    return handled;
}
