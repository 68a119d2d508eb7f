// abort() and exit() end the path: what follows sees only the other branch.
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

static void check_range(int v) {
    if (v > 1000)
        exit(2);
}

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < 0)
        abort();
    assert(x >= 0); // PROVED
    if (x > 100)
        exit(1);
    assert(x <= 100); // PROVED
    if (x > 50)
        check_range(2000);
    assert(x <= 50); // PROVED: exit inside the called function ends the path too
    int y = __VERIFIER_nondet_int();
    check_range(y);
    assert(y <= 1000); // PROVED(octagon): the callee refines its parameter v; only a relation v == y carries it to y
    return 0;
}
