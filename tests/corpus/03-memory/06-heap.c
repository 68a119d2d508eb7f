// Heap blocks: their contents are unknown values; writes to them never touch globals.
#include <assert.h>
#include <stdlib.h>

int g = 1;

int main(void) {
    int *h = malloc(sizeof(int));
    if (!h)
        return 0;
    *h = 5;
    assert(*h == 5); // MAY-FAIL: true, but heap contents are not tracked
    assert(g == 1); // PROVED: a heap block is not g
    int *z = calloc(4, sizeof(int));
    if (!z)
        return 0;
    z[2] = 3;
    assert(g == 1); // PROVED
    free(h);
    free(z);
    return 0;
}
