// The order of heap blocks' addresses is the allocator's choice: glibc hands the block freed
// first to the next request of its size, below `q`. `confirm` gives objects addresses in the
// order it first needs them (one layout among those a run may have), in which `q < r` holds;
// a proof by exploration must never decide a branch by such a layout: there a pointer made an
// integer is unknown, and the attempt stops.
//PROOF: gap an unknown value decides
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

int main(void) {
    char *p = malloc(16);
    char *q = malloc(16);
    if (!p || !q)
        return 0;
    free(p);
    char *r = malloc(16);
    if (!r)
        return 0;
    assert((uintptr_t)q < (uintptr_t)r); // FAILS! glibc reuses the freed block for r
    return 0;
}
