// `pthread_once` runs its init routine: its store is seen after the call, and an assertion in
// the routine is analysed (not unreachable). The call is the only one with `once` and runs once,
// so the routine is inlined there (issue 35): main's state flows into it, and its stores are
// main's after the call.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

static int x;
static int y;
static int z;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
    assert(z == 0); // FAILS! main may set z before the call
    x = 1;
}

int main(void) {
    int local = 0;
    if (__VERIFIER_nondet_int())
        z = 1;
    pthread_once(&once, init);
    assert(local == 0); // PROVED
    assert(x == 1);     // PROVED: the routine ran at the call
    assert(x == 0);     // FAILS! the init routine wrote it
    return 0;
}
