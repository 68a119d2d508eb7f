// Constant offsets between values: y = x + c keeps y - x == c when nothing wraps around.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < -100000 || x > 100000)
        return 0;
    int y = x + 7;
    int z = y - 3;
    assert(z > x);      // PROVED(octagon)
    assert(z == x + 4); // PROVED(octagon)
    int w = 10 - x;
    assert(w + x == 10); // PROVED(octagon): the sum of two related values is read off the octagon
    assert(w > -x);      // PROVED(octagon): -x is 0 - x, and w - (0 - x) is 10
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    if (a < b) {
        int c = b - 1;
        assert(a <= c); // PROVED(octagon): a < b without wrap-around, b - 1 cannot wrap
    }
    long l = x;
    long k = l + 1;
    assert(k > l); // PROVED(octagon): the sign extension keeps l == x
    return 0;
}
