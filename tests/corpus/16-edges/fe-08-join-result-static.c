// The joined result points to a static that the parent then writes; the parent's own later
// read sees its write (the store through the result is a store to the static).
#include <assert.h>
#include <pthread.h>

static int cell;
static int keep = 4;

static void *worker(void *arg) {
    pthread_exit(&cell);
}

int main(void) {
    pthread_t t;
    int *r;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, (void **)&r);
    *r = 1;
    assert(keep == 4); // PROVED
    assert(cell == 0); // FAILS! main wrote 1 through the result
    return 0;
}
