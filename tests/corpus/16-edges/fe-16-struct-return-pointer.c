// A pointer returned inside a small struct travels as an aggregate value (`{ptr, i64}`), which
// the analysis does not track: its target is exposed, so the store through it is seen.
#include <assert.h>
#include <pthread.h>

static int x;
static int y;

struct pair {
    int *p;
    long n;
};

static struct pair make(void) {
    struct pair r = {&x, 1};
    return r;
}

static void *writer(void *arg) {
    struct pair q = make();
    *q.p = 4;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(y == 0); // PROVED
    assert(x == 0); // FAILS! written through the returned struct's pointer
    return 0;
}
