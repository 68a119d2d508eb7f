// A struct holding a pointer returned by value travels as an LLVM aggregate (`{ptr, i64}`):
// the pointer taken out of it still points to `x`.
#include <assert.h>

struct ref {
    int *p;
    long n;
};

static int x;
static int y;

static struct ref mk(int *p) {
    struct ref r;
    r.p = p;
    r.n = 1;
    return r;
}

int main(void) {
    struct ref r = mk(&x);
    x = 0;
    *r.p = 1;
    assert(y == 0); // PROVED
    assert(x == 0); // FAILS! written through the returned struct's pointer
    return 0;
}
