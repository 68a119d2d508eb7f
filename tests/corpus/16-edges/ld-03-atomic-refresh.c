// A branch on a value loaded inside an atomic section must not refine the cell after the
// section ends and a new one begins: entering an atomic section refreshes the thread's view of
// the cells it protects, like taking a lock (`__VERIFIER_atomic_begin` is lock 0).
// Truth: with atomic sections implemented as a fair lock, main reads x == 0 in its first
// section while the writer waits, the writer then sets x = 1, and main's second section reads 1.
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
static int x;

static void *w(void *a) {
    (void)a;
    __VERIFIER_atomic_begin();
    x = 1;
    __VERIFIER_atomic_end();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    __VERIFIER_atomic_begin();
    int v = x;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_begin();
    if (v == 0) {
        int w2 = x;
        __VERIFIER_atomic_end();
        assert(w2 == 0); // FAILS! the writer's section may run between main's two
    } else {
        __VERIFIER_atomic_end();
    }
    __VERIFIER_atomic_begin();
    int u = x;
    __VERIFIER_atomic_end();
    assert(u == 0 || u == 1); // PROVED
    pthread_join(t, 0);
    return 0;
}
