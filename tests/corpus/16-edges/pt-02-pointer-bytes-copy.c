// A pointer copied byte by byte into another pointer variable, and one read as `*(long *)&p`
// into a global integer handed to a thread, which rebuilds the pointer through a union.
#include <assert.h>
#include <pthread.h>

static int x;
static int y;
static int untouched;

union box {
    int *p;
    long l;
};

static long stash;

static void *writer(void *arg) {
    union box u;
    u.l = stash;
    *u.p = 1;
    return 0;
}

int main(void) {
    int *p = &x, *q = 0;
    unsigned char *s = (unsigned char *)&p, *d = (unsigned char *)&q;
    for (unsigned i = 0; i < sizeof p; i++)
        d[i] = s[i];
    *q = 1;
    assert(untouched == 0); // PROVED
    assert(x == 0);         // FAILS! written through the copied bytes

    int *py = &y;
    stash = *(long *)&py;
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(y == 0); // FAILS! the thread writes through the pointer rebuilt from `stash`
    return 0;
}
