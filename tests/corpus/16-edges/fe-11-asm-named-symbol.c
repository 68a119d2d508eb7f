// Inline assembly that names a static global in its text writes it without any operand.
#include <assert.h>
#include <pthread.h>

static int counter;
static int z;

static void *writer(void *arg) {
    __asm__ volatile("movl $3, counter(%%rip)" : : : "memory");
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(z == 0);       // PROVED
    assert(counter == 0); // FAILS! the assembly wrote 3
    return 0;
}
