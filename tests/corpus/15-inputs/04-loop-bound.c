// A loop bound chosen by input: the count reaches 111 only after exactly 37 iterations (no
// candidate value of watts confirm is 37). The symbolic search needs a run per iteration count.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int count = 0;

static void *worker(void *arg) {
    (void)arg;
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n < 1000);
    for (int i = 0; i < n; i++)
        count += 3;
    return 0;
}

int main(void) {
    pthread_t w;
    pthread_create(&w, 0, worker, 0);
    pthread_join(w, 0);
    assert(count != 111); // FAILS! n == 37
    return 0;
}
