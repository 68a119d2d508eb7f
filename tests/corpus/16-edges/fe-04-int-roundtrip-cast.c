// `(int *)(uintptr_t)&x`: a pointer rebuilt from an integer within one constant expression.
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

static int x;
static int y;

static void *writer(void *arg) {
    int *p = (int *)(uintptr_t)&x;
    *p = 2;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(y == 0); // PROVED
    assert(x == 0); // FAILS! the thread wrote 2
    return 0;
}
