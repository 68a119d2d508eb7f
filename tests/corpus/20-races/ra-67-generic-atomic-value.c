// libatomic's generic atomics carry values (issue 35, class 2): an `_Atomic` struct too large to
// be lock free is stored, exchanged and loaded through `__atomic_store`, `__atomic_exchange` and
// `__atomic_load`, which the analysis models as copies inside an atomic section. The copies
// must move the values: each assertion below fails in every execution (gcc 12 -latomic: the
// first assertion aborts the run; without it, the second does), so none may be proved.
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
    struct big seen = box; // __atomic_load: writer's 7s
    assert(seen.v[0] == 0); // FAILS! writer stored 7 before the join
    struct big zero = {{0}};
    struct big old = atomic_exchange(&box, zero); // __atomic_exchange: the 7s out, 0s in
    assert(old.v[3] != 7); // FAILS! the exchange returns writer's 7s
    return 0;
}
