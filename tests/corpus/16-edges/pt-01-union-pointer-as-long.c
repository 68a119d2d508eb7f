// A pointer cell read back as an integer through a union (no ptrtoint instruction), stored as an
// integer, and read again as a pointer: the store through it writes `x`.
#include <assert.h>

static int x;
static int y;
static int z;

union box {
    int *p;
    long l;
};

int main(void) {
    union box a, b;
    int *r = &z;
    a.p = &x;
    long l = a.l;
    b.l = l;
    int *q = b.p;
    *q = 1;
    *r = 2;
    assert(y == 0); // PROVED
    assert(x == 0); // FAILS! written through the pointer rebuilt from the integer
    return 0;
}
