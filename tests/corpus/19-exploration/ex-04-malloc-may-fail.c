// `malloc` may return null: a proof by exploration runs both outcomes.
//PROOF: complete
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *shared;

static void *fill(void *arg) {
    (void)arg;
    int *p = malloc(sizeof *p);
    if (p)
        *p = 7;
    shared = p;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, fill, 0);
    pthread_join(t, 0);
    assert(!shared || *shared == 7); // MAY-FAIL: true; heap contents are beyond the analysis
    assert(shared != 0); // FAILS! out of memory, malloc returns null
    return 0;
}
