// A condition variable's wait loop: every execution is run (spurious wake-ups included).
//PROOF: complete
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready, data;

static void *producer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    data = 42;
    ready = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&cv, &m);
    int seen = data;
    pthread_mutex_unlock(&m);
    assert(seen == 42); // TODO: true
    assert(seen == 41); // FAILS! it is 42
    pthread_join(t, 0);
    return 0;
}
