// Inline assembly writes its memory operands: `"=m"(x)` and `"+m"(y)` store into static
// objects whose address appears nowhere else.
#include <assert.h>
#include <pthread.h>

static int x;
static int y;
static int z;

static void *writer(void *arg) {
    __asm__ volatile("movl $1, %0" : "=m"(x));
    __asm__ volatile("addl $2, %0" : "+m"(y));
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(z == 0); // PROVED: the assembly names neither z nor its address
    assert(x == 0); // FAILS! the assembly wrote 1
    return 0;
}
