// What a fresh heap block holds is not defined: `confirm` reads zeros (memory fresh from the
// system, as glibc hands out first), so the assertion is violated with a witness; a proof by
// exploration keeps the contents unknown, and the attempt stops at the branch they decide.
//PROOF: gap an unknown value decides
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *shared;

static void *fill(void *arg) {
    (void)arg;
    shared[1] = 5;
    return 0;
}

int main(void) {
    pthread_t t;
    shared = malloc(2 * sizeof *shared);
    if (!shared)
        return 0;
    pthread_create(&t, 0, fill, 0);
    pthread_join(t, 0);
    assert(shared[0] != 0); // FAILS! a fresh block from glibc holds zeros
    return 0;
}
