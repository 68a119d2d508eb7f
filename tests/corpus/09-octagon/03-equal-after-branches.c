// A relation survives branches that refine only one side, and comparisons between the same
// values are decided without their intervals.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int y = __VERIFIER_nondet_int();
    int x = y + 0;
    if (y > 5) {
        assert(x > 5); // PROVED(octagon): the branch refines y; only x == y + 0 carries it to x
    } else {
        assert(x <= 5); // PROVED(octagon)
    }
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    if (a <= b) {
        if (b <= a)
            assert(a == b); // PROVED(octagon)
        if (b < 100)
            assert(a < 100); // PROVED(octagon): a <= b < 100
    }
    if (a < b) {
        if (b < a)
            assert(0); // UNREACHABLE(octagon): a < b and b < a contradict each other
    }
    return 0;
}
