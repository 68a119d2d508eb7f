// A site in a function called twice (directly, or through a pointer) makes two blocks.
#include <assert.h>
#include <stdlib.h>

int *make(int x) {
    int *p = malloc(sizeof *p);
    if (p)
        *p = x;
    return p;
}

int *other(int x) {
    int *p = malloc(sizeof *p);
    if (p)
        *p = x;
    return p;
}

int *(*mk)(int) = other;

int main(void) {
    int *a = make(1), *b = make(2);
    int *c = mk(1), *d = mk(2);
    if (!a || !b || !c || !d)
        return 0;
    *b = 9;
    *d = 9;
    assert(*a == 9); // FAILS!: a is the other block
    // Reached only where the assertion above held, which it never does: the check is that
    // the analysis does not prove it (`c` is the other block too).
    assert(*c == 9); // MAY-FAIL: never reached after the failure above
    return 0;
}
