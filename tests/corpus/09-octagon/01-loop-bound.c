// A loop counter bounded by a value only known at run time: intervals know i < 1000 and
// n <= 1000, not i < n; the octagon keeps i - n <= -1 from the loop test.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int buf[1000];

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 1000)
        return 0;
    for (int i = 0; i < n; i++) {
        assert(i < n);      // PROVED(octagon)
        assert(i + 1 <= n); // PROVED(octagon): no wrap-around, i < n <= 1000
        assert(n - i >= 1); // PROVED(octagon): n - i is bounded by the relation, no wrap-around
        buf[i] = i;
    }
    int m = __VERIFIER_nondet_int();
    if (m < 0)
        return 0;
    for (int j = m; j > 0; j--)
        assert(j <= m); // PROVED(octagon): the phi j = m is kept as a relation (NumDomain::assign_parallel)
    return 0;
}
