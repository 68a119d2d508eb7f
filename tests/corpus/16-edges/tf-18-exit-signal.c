// A signal handler that calls pthread_exit ends the thread that receives the signal: the
// handler is a callback of unknown code (sigaction), so the thread may end anywhere.
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

static int x = 0;

static void on_signal(int s) {
    (void)s;
    pthread_exit(0);
}

static void *f(void *arg) {
    (void)arg;
    pthread_kill(pthread_self(), SIGUSR1);
    x = 1;
    return 0;
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGUSR1, &sa, 0);
    pthread_t a;
    pthread_create(&a, 0, f, 0);
    pthread_join(a, 0);
    assert(x == 1); // FAILS! the handler ended f inside pthread_kill
    return 0;
}
