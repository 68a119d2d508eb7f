// Relations that do not hold: no domain may prove these. Each check holds after it (the program
// stops otherwise), so the checks use fresh values.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 1000)
        return 0;
    int x = __VERIFIER_nondet_int();
    int y = x + 1;
    assert(y > x); // FAILS!: x + 1 wraps around at INT_MAX
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    if (a <= b)
        assert(a < b); // FAILS!: a == b
    unsigned u = (unsigned)__VERIFIER_nondet_int();
    unsigned v = u - 1;
    assert(v < u); // FAILS!: 0 - 1 is UINT_MAX
    int s = __VERIFIER_nondet_int();
    if (s < -10 || s > 10)
        return 0;
    int t = s * 2;
    assert(t - s == s + 1); // FAILS!
    // Last: a failing assertion stops the program, so nothing after the loop is reachable.
    for (int i = 0; i <= n; i++)
        assert(i < n); // FAILS!: i == n on the last iteration
    return 0;
}
