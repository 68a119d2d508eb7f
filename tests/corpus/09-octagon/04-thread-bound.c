// A thread-local relation between a loaded shared value and a loop counter: the thread reads the
// limit once (another thread may change it at any time) and keeps its counter below the copy.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int limit = 10;
int done = 0;

static void *worker(void *arg) {
    (void)arg;
    int n = limit;
    int i = 0;
    while (i < n) {
        assert(i < n);  // PROVED(octagon)
        assert(i < limit); // FAILS!: the other thread may lower limit after the copy
        i = i + 1;
    }
    return 0;
}

static void *setter(void *arg) {
    (void)arg;
    int v = __VERIFIER_nondet_int();
    if (v >= 0 && v <= 100)
        limit = v;
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, setter, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
