// Idiom 5's failing side: two counters under two mutexes are not one relation; a reader that
// takes them one after the other may see one updated and not the other.
#include <assert.h>
#include <pthread.h>

#define CAPACITY 10
int used = 0, avail = CAPACITY;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER, ma = PTHREAD_MUTEX_INITIALIZER;

void *taker(void *arg) {
    pthread_mutex_lock(&mu);
    pthread_mutex_lock(&ma);
    avail--;
    used++;
    pthread_mutex_unlock(&ma);
    pthread_mutex_unlock(&mu);
    return 0;
}

void *reader(void *arg) {
    pthread_mutex_lock(&mu);
    int u = used;
    pthread_mutex_unlock(&mu);
    pthread_mutex_lock(&ma);
    int a = avail;
    pthread_mutex_unlock(&ma);
    assert(u + a == CAPACITY); // FAILS! taker may run between the two reads
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, taker, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
