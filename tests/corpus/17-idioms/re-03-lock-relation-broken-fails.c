// Idiom 5's failing side: a thread that breaks the relation under the lock, or releases the
// lock while it is broken, publishes that state; the other thread's check really fails.
#include <assert.h>
#include <pthread.h>

#define CAPACITY 10
int used = 0, avail = CAPACITY;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *leaky(void *arg) {
    pthread_mutex_lock(&m);
    avail--;
    pthread_mutex_unlock(&m);
    // Another thread may take the lock here and see avail decremented alone.
    pthread_mutex_lock(&m);
    used++;
    pthread_mutex_unlock(&m);
    return 0;
}

void *checker(void *arg) {
    pthread_mutex_lock(&m);
    assert(used + avail == CAPACITY); // FAILS! between leaky's two sections
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, leaky, 0);
    pthread_create(&b, 0, checker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
