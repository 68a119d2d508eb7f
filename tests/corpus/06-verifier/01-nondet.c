// __VERIFIER_nondet_*: any value of the returned type.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
    int a = __VERIFIER_nondet_int();
    assert(a != 12345); // FAILS! any int
    unsigned u = __VERIFIER_nondet_uint();
    if (u > 10u)
        return 0;
    assert(u <= 10u); // PROVED
    char c = __VERIFIER_nondet_char();
    int ci = c;
    assert(ci >= -128 && ci <= 127); // PROVED: char is signed on x86_64
    _Bool b = __VERIFIER_nondet_bool();
    int bi = b;
    assert(bi >= 0 && bi <= 1); // PROVED
    assert(bi == 1); // FAILS!
    return 0;
}
