// Semaphores that do not hand over (issue 36, orderings), where the post → wait rule must not
// fire: `one` starts at 1, so the consumer's wait need not consume the producer's post; `two`
// is also posted by a thread that writes nothing first, so the wait may consume that post; the
// consumer's `sem_trywait` on `three` is not checked, so it may fail and order nothing; `four`
// is posted in a loop that writes `e` again after the first post, which the wait may take. The
// neighbour, ra-50, hands each value over through a semaphore that only its writer posts.
// ThreadSanitizer (gcc 12 -fsanitize=thread, 5 runs): a data race on each of `a`, `b`, `c` and
// `e` (the producer's write against the consumer's read) in every run.
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

static sem_t one, two, three, four;
static int a, b, c, e;

static void *producer(void *arg) {
    (void)arg;
    usleep(100000);
    a = 1; // RACE!: the wait on `one` may take the initial count
    sem_post(&one);
    b = 2; // RACE!: the wait on `two` may take the other thread's post
    sem_post(&two);
    c = 3; // RACE!: the trywait on `three` may fail
    sem_post(&three);
    for (int i = 0; i < 2; i++) {
        e = i; // RACE!: written again after the post the wait on `four` may take
        sem_post(&four);
        usleep(100000);
    }
    return 0;
}

static void *other(void *arg) {
    (void)arg;
    sem_post(&two);
    return 0;
}

int main(void) {
    pthread_t p, q;
    sem_init(&one, 0, 1);
    sem_init(&two, 0, 0);
    sem_init(&three, 0, 0);
    sem_init(&four, 0, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_create(&q, 0, other, 0);
    sem_wait(&one);
    int r = a; // RACE!
    sem_wait(&two);
    r += b; // RACE!
    sem_trywait(&three);
    r += c; // RACE!
    sem_wait(&four);
    r += e; // RACE!
    pthread_join(p, 0);
    pthread_join(q, 0);
    return r;
}
