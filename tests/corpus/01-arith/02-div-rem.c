// Signed and unsigned division and remainder.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int p = 17, q = 5, n = -17;
    assert(p / q == 3);    // PROVED
    assert(p % q == 2);    // PROVED
    assert(n / q == -3);   // PROVED: rounds toward zero
    assert(n % q == -2);   // PROVED: the sign of the dividend

    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 100)
        return 0;
    int d = x / 7;
    assert(d >= 0 && d <= 14); // PROVED
    int r = x % 7;
    assert(r >= 0 && r < 7); // PROVED
    unsigned u = (unsigned)x;
    assert(u / 4 <= 25); // PROVED
    assert(u % 8 < 8);   // PROVED

    int m = __VERIFIER_nondet_int();
    if (m < -100 || m > -1)
        return 0;
    int md = m / 10;
    assert(md >= -10 && md <= 0); // PROVED
    int mr = m % 10;
    assert(mr <= 0 && mr > -10); // PROVED
    int k = __VERIFIER_nondet_int();
    if (k < 1 || k > 4)
        return 0;
    int e = 100 / k;
    assert(e >= 25 && e <= 100); // PROVED: division by a positive range
    return 0;
}
