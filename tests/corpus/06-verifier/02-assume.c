// __VERIFIER_assume and assume_abort_if_not, declared only: execution continues only when the
// condition holds.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
extern void assume_abort_if_not(int cond);

int main(void) {
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x > 0);
    __VERIFIER_assume(x < 10);
    assert(x >= 1 && x <= 9); // PROVED
    int y = __VERIFIER_nondet_int();
    assume_abort_if_not(y >= -5);
    assume_abort_if_not(y <= 5);
    assert(y * y <= 25); // PROVED: y in [-5, 5]
    int z = __VERIFIER_nondet_int();
    __VERIFIER_assume(z == 3);
    assert(z == 3); // PROVED
    __VERIFIER_assume(z > 5);
    assert(0); // UNREACHABLE: z == 3 and z > 5
    return 0;
}
