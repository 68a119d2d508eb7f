// Wrap-around of unsigned and explicitly truncated arithmetic.
#include <assert.h>

extern unsigned char __VERIFIER_nondet_uchar(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
    unsigned u = 4294967295u;
    u = u + 1;
    assert(u == 0u); // PROVED: unsigned wrap
    unsigned z = 0u;
    z = z - 1;
    assert(z == 4294967295u); // PROVED

    int wide = __VERIFIER_nondet_uchar();
    if (wide < 250)
        return 0;
    unsigned char w = wide + 10; // 260..265 wraps to 4..9
    assert(w >= 4 && w <= 9); // PROVED

    unsigned k = __VERIFIER_nondet_uint();
    if (k > 10u)
        return 0;
    unsigned d = k - 20u; // wraps for every k in 0..10
    assert(d >= 4294967276u); // PROVED: 4294967276..4294967286

    unsigned char uc = __VERIFIER_nondet_uchar();
    if (uc < 250)
        return 0;
    // The test refines one zero extension of uc, the assertion extends uc again.
    assert(uc >= 250); // TODO: needs refinement through the cast of the test
    return 0;
}
