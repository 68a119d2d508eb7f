// `setcontext` continues after the `getcontext` that saved the context, with memory as it is
// at the `setcontext`: `getcontext` returns twice, like `setjmp`.
// gcc -O0: the assertion fails on every run.
#include <assert.h>
#include <ucontext.h>

static int x = 0;
static volatile int done = 0;

int main(void) {
    ucontext_t uc;
    assert(x == 0); // PROVED
    getcontext(&uc);
    if (done) {
        assert(x == 0); // FAILS! the second return sees x = 1
        return 0;
    }
    done = 1;
    x = 1;
    setcontext(&uc);
    return 0;
}
