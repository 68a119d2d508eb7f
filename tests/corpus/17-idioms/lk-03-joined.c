// Issue 17, idiom 4 "Locks, both ways" (analysis::sync::protection, `Joins`): a global that
// `main` reads without the lock only after joining every thread that accesses it still counts
// as protected, as accesses before the first creation already do. Each worker marks the shared
// state busy inside its critical section and idle again before it leaves it, so a reader that
// holds the lock, or that runs when no worker can run, sees it idle. Without protection the
// store `state = BUSY` would be read (lk-04-joined-fails.c: each way of not waiting for every
// worker).
#include <assert.h>
#include <pthread.h>

#define N 3
#define IDLE 0
#define BUSY 1

int state;
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&m);
        state = BUSY;
        count = count + 1;
        if (count > 4)
            count = 4;
        state = IDLE;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t a, b, t[N];
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(state == IDLE); // PROVED: both workers were joined
    // The saturating counter passes through 5 inside the section only; the values the workers
    // publish grow from round to round and are widened, to the next constant the program
    // compares `count` with before infinity (`Facts::thresholds`).
    assert(count <= 4); // PROVED: widened to the threshold 4 the program compares with
    state = BUSY;       // main is alone: no lock needed
    state = IDLE;
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    assert(state == IDLE); // PROVED: a join loop waits for every instance
    return 0;
}
