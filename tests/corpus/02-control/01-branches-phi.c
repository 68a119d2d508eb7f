// Branches refine the tested value; phis join the values of the incoming edges.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 100)
        return 0;
    int v;
    if (x < 10) {
        assert(x <= 9); // PROVED
        v = x + 100;
    } else {
        assert(x >= 10); // PROVED
        v = x - 100;
    }
    assert(v >= -90 && v <= 109); // PROVED: the phi joins [100, 109] and [-90, 0]
    assert(v != 50); // MAY-FAIL: true, but 50 lies in the joined interval
    if (x > 200)
        assert(x == 0); // UNREACHABLE: x is at most 100
    int p = x;
    if (x == 42)
        p = 0;
    assert(p != 42); // MAY-FAIL: true, but the else edge keeps 42 in [0, 100]
    return 0;
}
