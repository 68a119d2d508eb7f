// `pthread_setspecific` keeps a pointer and `pthread_getspecific` hands it back later, in a
// helper that no argument links to `x`.
#include <assert.h>
#include <pthread.h>

static int x;
static pthread_key_t key;

static void bump(void) {
    int *p = pthread_getspecific(key);
    *p = 1;
}

int main(void) {
    int local = 0;
    pthread_key_create(&key, 0);
    pthread_setspecific(key, &x);
    x = 0;
    bump();
    assert(local == 0); // PROVED
    assert(x == 0);     // FAILS! written through the kept pointer
    return 0;
}
