// A pointer passed in a register to inline assembly with a "memory" clobber: the assembly
// writes through it.
#include <assert.h>
#include <pthread.h>

static int x;
static int z;

static void *writer(void *arg) {
    __asm__ volatile("movl $5, (%0)" : : "r"(&x) : "memory");
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(z == 0); // PROVED
    assert(x == 0); // FAILS! the assembly stored 5 through the register
    return 0;
}
