// Heap blocks: a block allocated once holds what was stored into it; the blocks of a site that
// allocates again and again share summary cells; writes to them never touch globals.
#include <assert.h>
#include <stdlib.h>

int g = 1;

int main(void) {
    int *h = malloc(sizeof(int));
    if (!h)
        return 0;
    *h = 5;
    assert(*h == 5); // PROVED: this site allocates once, so its block takes strong updates
    assert(g == 1); // PROVED: a heap block is not g
    int *z = calloc(4, sizeof(int));
    if (!z)
        return 0;
    z[2] = 3;
    assert(g == 1); // PROVED
    int *last = 0;
    for (int i = 0; i < 2; i++) {
        int *b = malloc(sizeof(int));
        if (!b)
            return 0;
        *b = i;
        if (i == 1)
            assert(*last == 0); // MAY-FAIL: true, but both blocks are one summary cell
        last = b;
    }
    free(h);
    free(z);
    return 0;
}
