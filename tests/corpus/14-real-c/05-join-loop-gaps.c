// Join loops that do not wait for every thread, and create loops that may create none: each
// section's assertion really fails, so the join-loop rule must not fire. (Create and join
// loops inside an outer loop are in 06-join-loop-rounds.c: that failure happens in every
// execution, which would leave the later sections unreachable.)
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

#define N 4

int z1, z2, z3;     // stored by main after a join loop
int x5, x6;         // stored by workers

static void *short_loop(void *arg) {
    (void)arg;
    int v = z1;
    assert(v == 0); // FAILS! the last instance is not joined before z1 = 5
    return 0;
}

static void *every_other(void *arg) {
    (void)arg;
    int v = z2;
    assert(v == 0); // FAILS! odd slots are never joined
    return 0;
}

static void *may_break(void *arg) {
    (void)arg;
    int v = z3;
    assert(v == 0); // FAILS! the join loop may stop early
    return 0;
}

static void *maybe_none(void *arg) {
    (void)arg;
    x5 = 1;
    return 0;
}

static void *sometimes(void *arg) {
    if (arg)
        x6 = 1;
    return 0;
}

int main(void) {
    pthread_t a[N], b[N], c[N], e[N], f[N];
    for (int i = 0; i < N; i++)
        pthread_create(&a[i], 0, short_loop, 0);
    for (int i = 0; i < N - 1; i++)
        pthread_join(a[i], 0);
    z1 = 5;

    for (int i = 0; i < N; i++)
        pthread_create(&b[i], 0, every_other, 0);
    for (int i = 0; i < N; i += 2)
        pthread_join(b[i], 0);
    z2 = 5;

    for (int i = 0; i < N; i++)
        pthread_create(&c[i], 0, may_break, 0);
    for (int i = 0; i < N; i++) {
        if (__VERIFIER_nondet_int())
            break;
        pthread_join(c[i], 0);
    }
    z3 = 5;

    int n = __VERIFIER_nondet_int();
    for (int i = 0; i < n && i < N; i++)
        pthread_create(&e[i], 0, maybe_none, 0);
    for (int i = 0; i < N; i++)
        if (i < n)
            pthread_join(e[i], 0);
    int v5 = x5;
    assert(v5 == 1); // FAILS! with n <= 0 no worker runs

    for (int i = 0; i < N; i++)
        pthread_create(&f[i], 0, sometimes, (void *)(long)(i == 7));
    for (int i = 0; i < N; i++)
        pthread_join(f[i], 0);
    int v6 = x6;
    assert(v6 == 1); // FAILS! no worker stores x6
    return 0;
}
