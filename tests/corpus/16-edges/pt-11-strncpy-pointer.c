// `strncpy` copies a pointer's bytes into another pointer variable. The copy is exact when the
// address has no zero byte followed by a non-zero one (strncpy pads with zeros after the first
// zero byte): 89 of 100 runs under gcc -O0 with ASLR; `q == p` keeps the store to that case.
#include <assert.h>
#include <string.h>

static int x;
static int y;

int main(void) {
    int *p = &x, *q = 0;
    strncpy((char *)&q, (char *)&p, sizeof p);
    x = 0;
    if (q == p)
        *q = 1;
    assert(y == 0); // PROVED
    assert(x == 0); // FAILS! written through the copied pointer
    return 0;
}
