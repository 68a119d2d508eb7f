// One store instruction writes different values into different cells: `p` points to `g` or
// to `big`, so `*(int *)p = 2` sets `g` to 2 (a whole cell) or the low half of `big` (part of a
// cell: `big` may become any value). A load of `g` that reads this store reads 2, in every
// mode: the flow-sensitive modes once joined the values of the store over all its cells and
// read any value, where flow-insensitive read 2 (a mode-order violation found by the random
// programs of tests/random_threads.rs). A load that may read `g` or `h` reads, from this
// store, what it wrote into `g` or `h`: 2 again.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

static int g, h;
static int *q;
long big = 0x100000000L;
int flag;

static void *reader(void *arg) {
    (void)arg;
    while (flag == 0) {
    }
    int v = g;
    assert(v != 5);            // PROVED g is 0 or 2
    long b = big;
    assert(b != 0x100000002L); // FAILS! with p == &big, the store sets the low half of big
    int u = *q;
    assert(u != 5);            // PROVED g or h, 0 or 2
    assert(u != 2);            // FAILS! with p == &g and q == &g
    return 0;
}

int main(void) {
    pthread_t t;
    q = __VERIFIER_nondet_int() ? &g : &h;
    pthread_create(&t, 0, reader, 0);
    void *p = __VERIFIER_nondet_int() ? (void *)&g : (void *)&big;
    *(int *)p = 2;
    flag = 1;
    pthread_join(t, 0);
    return 0;
}
