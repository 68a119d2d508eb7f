// Casts: truncation, sign extension, zero extension, between every width.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern signed char __VERIFIER_nondet_char(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < 256 || x > 300)
        return 0;
    unsigned char t = (unsigned char)x;
    assert(t <= 44); // PROVED: 256..300 truncates to 0..44

    int k = __VERIFIER_nondet_int();
    if (k < 200 || k > 210)
        return 0;
    signed char s = (signed char)k;
    assert(s < 0 && s >= -56); // PROVED: 200..210 is -56..-46 as a signed char

    int small = __VERIFIER_nondet_char();
    if (small < -10 || small > 10)
        return 0;
    signed char sc = (signed char)small;
    int se = sc;
    assert(se >= -10 && se <= 10); // PROVED: sign extension
    unsigned char zc = (unsigned char)sc;
    int ze = zc;
    assert(ze >= 0); // PROVED: zero extension

    long L = __VERIFIER_nondet_long();
    if (L < 0x100000000L || L > 0x100000005L)
        return 0;
    int low = (int)L;
    assert(low >= 0 && low <= 5); // PROVED: the high word is dropped

    int neg = -1;
    unsigned long wide = (unsigned long)(unsigned)neg;
    assert(wide == 4294967295UL); // PROVED: zero-extended through unsigned
    long swide = neg;
    assert(swide == -1L); // PROVED: sign-extended
    return 0;
}
