// switch: each case edge refines the scrutinee; the default edge excludes the cases.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 100)
        return 0;
    int y;
    switch (x) {
    case 0:
        y = 10;
        break;
    case 1:
    case 2:
        assert(x >= 1 && x <= 2); // PROVED
        y = 20;
        break;
    case 5:
        assert(x == 5); // PROVED
        y = 30;
        break;
    default:
        assert(x >= 3); // PROVED: the default edge excludes 0, 1 and 2 (5 is inside the range)
        y = 0;
        break;
    }
    assert(y >= 0 && y <= 30); // PROVED
    switch (x) {
    case 200:
        assert(0); // UNREACHABLE: x is at most 100
        break;
    default:
        break;
    }
    return 0;
}
