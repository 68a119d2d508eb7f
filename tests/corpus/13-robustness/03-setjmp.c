// setjmp/longjmp: longjmp is an unknown function; control comes back through setjmp's
// second return, which the analysis over-approximates as a call returning any value.
#include <assert.h>
#include <setjmp.h>

jmp_buf env;
int x;

static void f(void) {
    x = 2;
    longjmp(env, 1);
}

int main(void) {
    if (setjmp(env) == 0) {
        x = 1;
        f();
    }
    assert(x == 1); // FAILS! longjmp returns here after x = 2
    return 0;
}
