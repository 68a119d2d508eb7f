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
    assert(*c == 9); // FAILS!
    return 0;
}
