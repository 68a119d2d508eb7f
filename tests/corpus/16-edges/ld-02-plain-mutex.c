// The neighbour of ld-01 with an ordinary mutex: C overwrites its intermediate value before it
// releases `m`, so D never reads 1 (the LockedOverwrite rule of rules/README.md).
#include <assert.h>
#include <pthread.h>

static int x;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *C(void *a) { (void)a; pthread_mutex_lock(&m); x = 1; x = 2; pthread_mutex_unlock(&m); return 0; }
static void *D(void *a) {
    (void)a;
    pthread_mutex_lock(&m);
    int v = x;
    pthread_mutex_unlock(&m);
    assert(v != 1); // PROVED(constraints)
    return 0;
}

int main(void) {
    pthread_t c, d;
    pthread_create(&c, 0, C, 0);
    pthread_create(&d, 0, D, 0);
    pthread_join(c, 0);
    pthread_join(d, 0);
    return 0;
}
