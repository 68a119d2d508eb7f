// Nondeterministic values and a condition that holds for most, but not all, of them.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 1000)
        return 0;
    assert(x != 500); // FAILS!
    assert(x % 7 != 3); // FAILS!
    long l = __VERIFIER_nondet_long();
    int t = (int)l;
    if (l > 0)
        assert(t > 0); // FAILS! the truncation of 0x100000000 is 0
    return 0;
}
