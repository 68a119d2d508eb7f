// Integer arithmetic on intervals: add, sub, mul, with constants and with a range.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int a = 7, b = 3;
    assert(a + b == 10); // PROVED
    assert(a - b == 4);  // PROVED
    assert(a * b == 21); // PROVED
    assert(b - a == -4); // PROVED

    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 100)
        return 0;
    int y = x + 10;
    assert(y >= 10 && y <= 110); // PROVED
    int z = 50 - x;
    assert(z >= -50 && z <= 50); // PROVED
    int w = x * 3;
    assert(w <= 300); // PROVED
    int v = x * -2;
    assert(v <= 0 && v >= -200); // PROVED
    long l = (long)x * 1000000000L;
    assert(l <= 100000000000L); // PROVED: 64-bit product, no overflow
    // Relational: y - x is always 10, but intervals lose the link between x and y.
    assert(y > x); // PROVED(octagon)
    assert(y - x == 10); // PROVED(octagon): [-90, 110] in intervals
    return 0;
}
