// A `sem_wait` in a program that installs a signal handler (issue 36, orderings): a handler
// may interrupt the wait, which then returns -1 (`EINTR`) without taking a post, so an
// unchecked `sem_wait` orders nothing here (here the poker interrupts main's first wait); one
// retried until it returns 0 still follows the post it took.
// ThreadSanitizer (gcc 12 -fsanitize=thread, 5 runs): a data race on `x` (the producer's write
// against main's read after the interrupted wait) in every run; none on `y`.
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static sem_t s, t;
static int x, y;
static pthread_t main_thread;

static void on_signal(int sig) {
    (void)sig;
}

static void *poker(void *arg) {
    (void)arg;
    usleep(50000);
    pthread_kill(main_thread, SIGUSR1);
    return 0;
}

static void *producer(void *arg) {
    (void)arg;
    usleep(200000);
    x = 1; // RACE!: the wait on `s` may be interrupted
    sem_post(&s);
    y = 2; // NO-RACE
    sem_post(&t);
    return 0;
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGUSR1, &sa, 0);
    main_thread = pthread_self();
    sem_init(&s, 0, 0);
    sem_init(&t, 0, 0);
    pthread_t p, q;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&q, 0, poker, 0);
    sem_wait(&s);
    int r = x; // RACE!
    while (sem_wait(&t) != 0)
        ;
    r += y; // NO-RACE: after a wait that returned 0
    pthread_join(p, 0);
    pthread_join(q, 0);
    return r;
}
