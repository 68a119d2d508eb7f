// A counter bounded under a mutex by two threads (issue 18, point 5): every access to `m` holds
// `lock` (main's first one before any thread exists), so a thread reads the value the last
// holder left at its release, never one in between. `watts invariants` must show the range
// the proof uses on each assertion's line (tests/invariants.rs).
#include <assert.h>
#include <pthread.h>

int m;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    if (m < 1)
        m++;
    assert(m <= 1); // PROVED: with lock protection
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    m = 0;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_mutex_lock(&lock);
    assert(m <= 1); // PROVED: with lock protection
    assert(m >= 0); // PROVED
    pthread_mutex_unlock(&lock);
    return 0;
}
