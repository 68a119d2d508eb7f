// Bitwise and, or, xor, not.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
    int c = 0x5A;
    assert((c & 0x0F) == 0x0A); // PROVED: constants
    assert((c | 0x01) == 0x5B); // PROVED
    assert((c ^ 0xFF) == 0xA5); // PROVED
    assert(~c == -91);          // PROVED

    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 100)
        return 0;
    int lo = x & 0x0F;
    assert(lo >= 0 && lo <= 15); // PROVED: and with a non-negative mask
    int m = x & 0x70;
    assert(m <= 0x70); // PROVED
    int o = x | 1;
    assert(o >= 1 && o <= 127); // TODO: needs the power-of-two bound of `or`
    int nx = ~x;
    assert(nx >= -101 && nx <= -1); // TODO: `xor -1` is `-x - 1`
    int t = x ^ 0x100;
    assert(t >= 0); // TODO: xor of non-negatives is non-negative

    unsigned char b = __VERIFIER_nondet_uchar();
    unsigned hi = (unsigned)b & 0xF0u;
    assert(hi <= 0xF0u); // PROVED
    return 0;
}
