// Mutexes in an array, picked by an index the analysis does not know, are not one lock: two
// threads that lock `locks[i]` for different i do not exclude each other. A counter in the
// same struct is therefore not protected.
#include <assert.h>
#include <pthread.h>

static struct {
    pthread_mutex_t locks[2];
    int count;
} s = { { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER }, 0 };

static void *bump(void *arg) {
    long i = (long)arg;
    pthread_mutex_lock(&s.locks[i]);
    s.count = s.count + 1;
    s.count = s.count - 1;
    pthread_mutex_unlock(&s.locks[i]);
    return 0;
}

static void *check(void *arg) {
    long i = (long)arg;
    pthread_mutex_lock(&s.locks[i]);
    assert(s.count == 0); // FAILS! bump may hold the other lock between its two writes
    pthread_mutex_unlock(&s.locks[i]);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, bump, (void *)0L);
    pthread_create(&b, 0, check, (void *)1L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
