// Casts of ranges that straddle a wrap boundary: the result is not an interval of the source.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int w = __VERIFIER_nondet_int();
    if (w < 250 || w > 260)
        return 0;
    unsigned char t = (unsigned char)w;
    assert(t >= 250); // FAILS! 256 truncates to 0
    int i = __VERIFIER_nondet_int();
    if (i < -5 || i > 5)
        return 0;
    unsigned v = (unsigned)i;
    assert(v < 10u); // FAILS! -1 is 4294967295
    signed char s = (signed char)(i + 125); // 120..130: 128 becomes -128
    assert(s > 0); // FAILS!
    return 0;
}
