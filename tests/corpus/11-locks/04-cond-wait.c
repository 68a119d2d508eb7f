// pthread_cond_wait releases the mutex while it waits, so a value stored before the wait may be
// read by a thread that takes the mutex meanwhile: the mutual-exclusion rule must not fire.
// The waiting thread's other store is a private cell, so the unknown call hides nothing here:
// the reader's value comes from `c` alone.
#include <assert.h>
#include <pthread.h>

static int c;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void *writer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    c = 1;
    pthread_cond_wait(&cv, &m); // releases m while it waits
    c = 2;
    pthread_mutex_unlock(&m);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int v = c;
    pthread_mutex_unlock(&m);
    assert(v != 1); // FAILS! the writer waits on the condition without m
    return 0;
}

int main(void) {
    pthread_t t[2];
    pthread_create(&t[0], 0, writer, 0);
    pthread_create(&t[1], 0, reader, 0);
    return 0;
}
