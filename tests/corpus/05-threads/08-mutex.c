// A counter protected by a mutex. The baseline ignores locks: it cannot prove the exact count.
#include <assert.h>
#include <pthread.h>

int count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *inc(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    count = count + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2); // MAY-FAIL: true with the lock; needs lock reasoning
    assert(count >= 0); // TODO: true; the widened count + 1 may overflow in the analysis
    return 0;
}
