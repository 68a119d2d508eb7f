// Inline assembly may write its outputs and, with a "memory" clobber, any memory.
#include <assert.h>

int x = 1;

int main(void) {
    int y = 5;
    __asm__ volatile("movl $7, %0" : "=r"(y));
    assert(y != 7 || x == 1); // MAY-FAIL: true; the output of the asm is any value
    __asm__ volatile("" ::: "memory");
    assert(x == 1); // MAY-FAIL: true; a memory clobber may write x
    assert(y == 5); // FAILS! the asm wrote 7
    return 0;
}
