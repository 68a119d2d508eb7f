// An address converted to an integer by a constant expression in code (clang folds
// `(uintptr_t)&x` into a `ptrtoint` constant operand) and back to a pointer in another thread.
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

static int x;
static int y;
uintptr_t slot;

static void *writer(void *arg) {
    int *p = (int *)slot;
    if (p)
        *p = 7;
    return 0;
}

int main(void) {
    pthread_t t;
    slot = (uintptr_t)&x;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(y == 0); // PROVED: y's address never becomes an integer
    assert(x == 0); // FAILS! the thread wrote 7 through the rebuilt pointer
    return 0;
}
