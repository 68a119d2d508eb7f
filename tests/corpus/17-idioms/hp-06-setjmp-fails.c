// After a longjmp back to a setjmp, the code after it (and its allocation) runs again.
#include <assert.h>
#include <setjmp.h>
#include <stdlib.h>

static jmp_buf env;
static int *first;

int main(void) {
    volatile int n = setjmp(env);
    int *p = malloc(sizeof *p);
    if (!p)
        return 0;
    if (n == 0) {
        *p = 5;
        first = p;
        longjmp(env, 1);
    }
    *p = 7;
    assert(*first == 7); // FAILS!: first is the block of the first pass
    return 0;
}
