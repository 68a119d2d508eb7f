// A pointer that may point to either of two globals: a store through it is a weak update of
// both, and a thread reading either may see it.
#include <assert.h>
#include <pthread.h>

int x, y;
int *p;

static void *writer(void *arg) {
    (void)arg;
    *p = 7;
    return 0;
}

int __VERIFIER_nondet_int(void);

int main(void) {
    p = __VERIFIER_nondet_int() ? &x : &y;
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    int vx = x;
    int vy = y;
    assert(vx == 0 || vx == 7); // PROVED(flow-sensitive) x reads 0 (own view) or 7 (the store); joined: [0, 7]
    assert(vy == 0 || vy == 7); // PROVED(flow-sensitive) the same for y
    assert(vx == 0);            // FAILS! p may point to x
    return 0;
}
