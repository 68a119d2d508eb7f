// An assertion inside a function holds in one calling context and fails in the other: the site
// is proved only if it holds in every context.
#include <assert.h>

static int divide(int n, int d) {
    assert(d != 0); // FAILS! the second call passes 0
    return d != 0 ? n / d : 0;
}

int main(void) {
    int q = divide(10, 2);
    assert(q == 5); // PROVED
    int z = divide(1, 0);
    assert(z == 0); // UNREACHABLE: the assertion in divide(1, 0) always fails and stops the program
    return 0;
}
