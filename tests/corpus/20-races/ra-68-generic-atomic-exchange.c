// libatomic's generic exchange carries values (issue 35, class 2): an `_Atomic` struct too large
// to be lock free is exchanged through `__atomic_exchange(size, ptr, val, ret)`, which the
// analysis models as two copies inside an atomic section (the old value out, then the new one
// in). The assertion below fails in every execution (gcc 12 -latomic aborts on it), so it may
// not be proved.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct big {
    int v[8];
};

static _Atomic struct big box;

static void *writer(void *arg) {
    struct big b = {{7, 7, 7, 7, 7, 7, 7, 7}};
    (void)arg;
    box = b; // __atomic_store
    return 0;
}

int main(void) {
    pthread_t w;
    pthread_create(&w, 0, writer, 0);
    pthread_join(w, 0);
    struct big zero = {{0}};
    struct big old = atomic_exchange(&box, zero); // __atomic_exchange: the 7s out, 0s in
    assert(old.v[3] != 7); // FAILS! the exchange returns writer's 7s
    return 0;
}
