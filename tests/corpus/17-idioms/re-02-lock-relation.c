// Issue 17, idiom 5 (second half): relations among lock-protected globals survive the hand-over
// with octagons. Each thread publishes, where it releases the mutex, what it knows of the
// mutex's cells together (`used + avail == CAPACITY`), and assumes at the next lock what every
// publication has in common.
#include <assert.h>
#include <pthread.h>

#define CAPACITY 10
int used = 0, avail = CAPACITY;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&m);
        if (avail > 0) {
            avail--;
            used++;
        }
        assert(used + avail == CAPACITY); // PROVED(octagon)
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *consumer(void *arg) {
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&m);
        if (used > 0) {
            used--;
            avail++;
        }
        assert(used + avail == CAPACITY); // PROVED(octagon)
        assert(used <= CAPACITY); // PROVED(octagon)
        assert(used == 0); // FAILS! the producer may have taken one
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, producer, 0);
    pthread_create(&b, 0, consumer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
