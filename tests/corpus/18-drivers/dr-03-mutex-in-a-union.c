// A synchronisation function writes its object's bytes (pthread_mutex_t), not the rest of
// the struct that holds it, but every byte of the mutex, even where a union overlays it.
#include <assert.h>
#include <pthread.h>

static struct {
    union { pthread_mutex_t m; int first; } u;
    int after;
} s = { .after = 7 };

static void *worker(void *arg) {
    pthread_mutex_lock(&s.u.m);
    pthread_mutex_unlock(&s.u.m);
    return 0;
}

int main(void) {
    pthread_t t;
    s.u.first = 5;
    pthread_mutex_init(&s.u.m, 0);
    assert(s.after == 7); // PROVED: past the mutex's bytes
    assert(s.u.first == 5); // FAILS! the mutex's first bytes are what init wrote
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
