// C that older compilers accepted and clang 16 rejects by default: a call of a function
// declared only later, and a pointer converted to an integer without a cast. watts compiles it
// with those errors turned back into warnings.
#include <assert.h>

int g = 1;

int main(void) {
    int *p = &g;
    long v = p; // a pointer to integer conversion without a cast
    (void)v;
    int r = helper(3); // implicitly declared
    assert(r == 4); // PROVED
    assert(r == 5); // FAILS!
    return 0;
}

int helper(int x) { return x + 1; }
