// The destructor given to `pthread_key_create` runs when a thread with a non-null value ends,
// before `pthread_join` returns.
#include <assert.h>
#include <pthread.h>

static int x;
static pthread_key_t key;

static void dtor(void *p) { x = 1; }

static void *thr(void *a) {
    pthread_setspecific(key, (void *)1);
    return 0;
}

int main(void) {
    int local = 0;
    pthread_t t;
    pthread_key_create(&key, dtor);
    pthread_create(&t, 0, thr, 0);
    pthread_join(t, 0);
    assert(local == 0); // PROVED
    assert(x == 0);     // FAILS! the destructor wrote it
    return 0;
}
