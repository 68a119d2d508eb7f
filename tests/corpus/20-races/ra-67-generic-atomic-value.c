// libatomic's generic atomics carry values (issue 35, class 2): an `_Atomic` struct too large to
// be lock free is stored and loaded through `__atomic_store` and `__atomic_load`, which the
// analysis models as copies inside an atomic section. The copies must move the values: the
// assertion below fails in every execution (gcc 12 -latomic aborts on it), so it may not be
// proved. ra-68 is the same for `__atomic_exchange`.
#include <assert.h>
#include <pthread.h>

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
    return 0;
}
