// Semaphores that hand over (issue 36, orderings): each starts at 0 and only the producer
// posts it, after its write, so a wait of it that succeeds follows the write (POSIX XBD 4.12:
// `sem_post` and the waits synchronise memory). `one` is waited for with `sem_wait` (no signal
// handler in the program, so it cannot fail), `two` in a loop until `sem_trywait` succeeds,
// `three` with `sem_timedwait` checked for success. The write after the last post is not
// handed over. The neighbour, ra-49, has semaphores where the rule must not fire.
// ThreadSanitizer (gcc 12 -fsanitize=thread, 5 runs): a data race on `d` only.
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

static sem_t one, two, three;
static int a, b, c, d;

static void *producer(void *arg) {
    (void)arg;
    usleep(100000);
    a = 1; // NO-RACE
    sem_post(&one);
    b = 2; // NO-RACE
    sem_post(&two);
    c = 3; // NO-RACE
    sem_post(&three);
    d = 4; // RACE!: after every post
    return 0;
}

int main(void) {
    pthread_t p;
    sem_init(&one, 0, 0);
    sem_init(&two, 0, 0);
    sem_init(&three, 0, 0);
    pthread_create(&p, 0, producer, 0);
    sem_wait(&one);
    int r = a; // NO-RACE
    while (sem_trywait(&two) != 0)
        usleep(1000);
    r += b; // NO-RACE
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 10;
    if (sem_timedwait(&three, &ts) == 0)
        r += c; // NO-RACE
    r += d; // RACE!
    pthread_join(p, 0);
    return r;
}
