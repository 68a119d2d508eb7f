// A store through a pointer the analysis cannot follow (an integer turned into a pointer)
// writes the stored value into every exposed cell of its size and any value into the exposed
// cells it may overlap only in part (`wide`). Every mode reads 2 from it
// in `g` (the flow-sensitive modes once read any value: tests/corpus/16-edges/mo-01 has the
// story), and any value in `wide`.
#include <assert.h>
#include <pthread.h>

int g = 1;
long wide = 0x100000000L;
int flag;

static void *reader(void *arg) {
    (void)arg;
    while (flag == 0) {
    }
    int v = g;
    assert(v != 5);             // PROVED g is 1 or 2
    long w = wide;
    assert(w != 0x100000002L);  // FAILS! the second store sets the low half of wide
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    long ip = (long)&g;
    *(int *)ip = 2;
    long jp = (long)&wide;
    *(int *)jp = 2;
    flag = 1;
    pthread_join(t, 0);
    return 0;
}
