// `?:` with constant arms is an LLVM select; with variable arms, branches and a phi.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 100)
        return 0;
    int m = x > 50 ? 1 : 2; // select
    assert(m >= 1 && m <= 2); // PROVED
    int y = x > 50 ? x : 50; // branches: the arm sees the refined x
    assert(y >= 50 && y <= 100); // PROVED
    int lo = x < 10 ? x : 10;
    assert(lo <= 10); // PROVED
    int n = x > 200 ? -1 : 7; // the condition is always false
    assert(n == 7); // PROVED
    return 0;
}
