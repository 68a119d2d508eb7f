// A pointer's bytes moved through non-pointer memory before they are used as a pointer again:
// `memcpy` from an integer, a struct assignment holding a union written as an integer, and a
// `double` that carries the bytes between two `memcpy`s.
#include <assert.h>
#include <string.h>

static int x, y, z;
static int untouched;

union box {
    int *p;
    long l;
};

struct tagged {
    int tag;
    union box u;
};

int main(void) {
    union box a;
    a.p = &x;
    long l = a.l;
    int *q = 0;
    memcpy(&q, &l, sizeof q);
    *q = 1;

    struct tagged s1, s2;
    union box b;
    b.p = &y;
    s1.tag = 1;
    s1.u.l = b.l;
    s2 = s1;
    *s2.u.p = 1;

    int *pz = &z, *r = 0;
    double d;
    memcpy(&d, &pz, sizeof d);
    double e = d;
    memcpy(&r, &e, sizeof r);
    *r = 1;

    assert(untouched == 0); // PROVED
    // One assertion for the three: the first failed assertion ends the process, so after an
    // `assert(x == 0)` that always fails the next ones are unreachable (the analysis sees that
    // since it follows the integer copied into `q`).
    assert(x == 0 || y == 0 || z == 0); // FAILS! x, y and z are each written through moved bytes
    return 0;
}
