// Figure 1 of the MPC paper (Yi & Huang, FSE'18): the error needs an input of at least 100 and
// an interleaving in which the third thread reads that input before it is overwritten.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int x = 0;
int y = 0;

static void *t1(void *arg) {
    (void)arg;
    int i = __VERIFIER_nondet_int();
    x = i;
    x = 2;
    return 0;
}

static void *t2(void *arg) {
    (void)arg;
    int j = __VERIFIER_nondet_int();
    x = j;
    x = 4;
    return 0;
}

static void *t3(void *arg) {
    (void)arg;
    int v = x;
    assert(v < 100); // FAILS! an input >= 100 read before it is overwritten
    y = 2;
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    pthread_create(&c, 0, t3, 0);
    return 0;
}
