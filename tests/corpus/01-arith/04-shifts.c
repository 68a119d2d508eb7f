// Shifts: shl, lshr, ashr, on constants and ranges; an unsigned shift that drops bits.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int one = 1, sh = 4;
    assert((one << sh) == 16); // PROVED
    unsigned big = 0x80000000u;
    assert((big << one) == 0u);          // PROVED: the top bit is shifted out
    assert((big >> 31) == 1u);           // PROVED: logical shift
    int neg = -64;
    assert((neg >> 2) == -16);           // PROVED: arithmetic shift

    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 100)
        return 0;
    int l = x << 2;
    assert(l >= 0 && l <= 400); // PROVED
    int r = x >> 3;
    assert(r >= 0 && r <= 12); // PROVED
    unsigned u = (unsigned)x >> 4;
    assert(u <= 6u); // PROVED

    int n = __VERIFIER_nondet_int();
    if (n < -64 || n > -1)
        return 0;
    int a = n >> 2;
    assert(a >= -16 && a <= -1); // PROVED
    return 0;
}
