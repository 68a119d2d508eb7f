// A thread cancelled at pthread_join while it holds a lock: its cleanup handler unlocks, so
// the store it would have overwritten before unlocking stays visible to the next locker.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static int x = 0;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_t c;

static void unlock_m(void *arg) {
    (void)arg;
    pthread_mutex_unlock(&m);
}

static void *slow(void *arg) {
    (void)arg;
    sleep(1);
    return 0;
}

static void *writer(void *arg) {
    (void)arg;
    pthread_cleanup_push(unlock_m, 0);
    pthread_mutex_lock(&m);
    x = 1;
    pthread_join(c, 0);
    x = 2;
    pthread_mutex_unlock(&m);
    pthread_cleanup_pop(0);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int r = x;
    pthread_mutex_unlock(&m);
    assert(r != 1); // FAILS! the writer was cancelled between x = 1 and x = 2
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&c, 0, slow, 0);
    pthread_create(&w, 0, writer, 0);
    usleep(100000);
    pthread_cancel(w);
    pthread_join(w, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(r, 0);
    return 0;
}
