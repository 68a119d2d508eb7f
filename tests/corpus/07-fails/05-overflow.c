// Overflows that really happen: the analysis must not assume them away.
#include <assert.h>
#include <limits.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
    unsigned u = __VERIFIER_nondet_uint();
    unsigned v = u + 1u;
    assert(v > u); // FAILS! u == UINT_MAX wraps to 0
    int x = __VERIFIER_nondet_int();
    if (x < 0)
        return 0;
    int w = (int)((unsigned)x + 1u); // INT_MAX + 1 wraps to INT_MIN (as clang converts)
    assert(w > 0); // FAILS!
    int y = x + 1; // signed overflow for x == INT_MAX: undefined, wraps at -O0
    assert(y > 0); // FAILS! an nsw add that overflows gives poison, not a bound
    unsigned char c = (unsigned char)(x & 0xFF);
    unsigned char d = c + 1;
    assert(d != 0); // FAILS! 255 + 1 truncates to 0
    return 0;
}
