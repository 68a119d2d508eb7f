// A condition variable publishes what was written before `ready` was set under the mutex:
// `payload` is written before, `extra` after the waiter may already be running.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;
int payload, extra;

static void *producer(void *arg) {
    (void)arg;
    payload = 7; // NO-RACE: before `ready`
    pthread_mutex_lock(&m);
    ready = 1; // NO-RACE: under `m`
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    extra = 1; // RACE!: after the consumer may have woken up
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!ready) // NO-RACE
        pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
    return (void *)(long)(payload + extra); // RACE!: `extra` (`payload` alone would not race)
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
