// A join loop over a handle array whose slot is overwritten through a pointer rebuilt from an
// integer (a union): `pthread_join(t[0])` waits for `quick`, not for `worker`, so `done` may
// still be 0. Deterministic under gcc: the worker sleeps before its store.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static int done;
static pthread_t t[1];

union box {
    pthread_t *p;
    long l;
};

static void *worker(void *a) {
    usleep(300000);
    done = 1;
    return 0;
}

static void *quick(void *a) { return 0; }

int main(void) {
    for (int i = 0; i < 1; i++)
        pthread_create(&t[i], 0, worker, 0);
    union box u, v;
    u.p = &t[0];
    v.l = u.l;
    pthread_t q;
    pthread_create(&q, 0, quick, 0);
    *v.p = q;
    for (int i = 0; i < 1; i++)
        pthread_join(t[i], 0);
    assert(done == 1); // FAILS! t[0] names `quick` when it is joined
    return 0;
}
