// Issue 17, idiom 4 "Locks, both ways" (rules/README.md, LockedOwnStore): a load inside a
// critical section that follows its own thread's store to the cell in the same section reads
// that store; another thread's store made under the same lock cannot come in between. The
// store may be on both branches (every path since the lock call), and the atomic sections of
// SV-COMP are one lock. A third thread reads the cells without the lock, so that they are not
// lock-protected (analysis::sync::protection) and only the rule proves the assertions.
#include <assert.h>
#include <pthread.h>

int x, y, z;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

static void *one(void *arg) {
    pthread_mutex_lock(&m);
    x = 1;
    assert(x == 1); // PROVED(constraints)
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    if (arg)
        y = 1;
    else
        y = 5;
    int v = y;
    pthread_mutex_unlock(&m);
    assert(v <= 5); // PROVED(constraints)
    __VERIFIER_atomic_begin();
    z = 1;
    assert(z == 1); // PROVED(constraints)
    __VERIFIER_atomic_end();
    return 0;
}

static void *two(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x = 2;
    assert(x == 2); // PROVED(constraints)
    y = 7;
    pthread_mutex_unlock(&m);
    __VERIFIER_atomic_begin();
    z = 2;
    __VERIFIER_atomic_end();
    return 0;
}

static void *peek(void *arg) {
    (void)arg;
    int seen = x + y + z;
    assert(seen <= 14); // PROVED
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, one, 0);
    pthread_create(&b, 0, two, 0);
    pthread_create(&c, 0, peek, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
