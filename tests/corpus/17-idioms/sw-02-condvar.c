// Idiom 2: the wait loop of a condition variable. The consumer leaves the loop only after
// reading `ready = 1`, which the producer stores after the data.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready, data;

void *producer(void *arg) {
    data = 42;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    return 0;
}

void *consumer(void *arg) {
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&cv, &m);
    int d = data;
    pthread_mutex_unlock(&m);
    assert(d == 42); // PROVED(constraints)
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(c, 0);
    pthread_join(p, 0);
    return 0;
}
