// The address of a static global hidden in an integer initialiser (`long a = (long)&x;`) comes
// back as a pointer: the thread's store through it writes `x`, so `x` is exposed.
#include <assert.h>
#include <pthread.h>

static int x;
static int y;
long a = (long)&x;

static void *writer(void *arg) {
    *(int *)a = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(y == 0); // PROVED: no address of y exists anywhere
    assert(x == 0); // FAILS! the thread wrote 1 through the integer
    return 0;
}
