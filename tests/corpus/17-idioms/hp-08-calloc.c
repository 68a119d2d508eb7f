// Idiom 7: calloc's zeroes in a block allocated once, seen by a thread created after the
// allocating one was joined.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct dev {
    int open_count;
    int mode;
    long bytes;
};
struct dev *dev;

void *probe(void *arg) {
    struct dev *d = calloc(1, sizeof *d);
    if (!d)
        return 0;
    d->mode = 3;
    dev = d;
    return 0;
}

void *user(void *arg) {
    if (dev) {
        assert(dev->open_count == 0); // PROVED(constraints): calloc zeroed it
        assert(dev->bytes == 0); // PROVED(constraints)
        assert(dev->mode == 3); // MAY-FAIL: true, but the store is made only if calloc succeeded
        assert(dev->mode == 0); // FAILS!
    }
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, probe, 0);
    pthread_join(t1, 0);
    pthread_create(&t2, 0, user, 0);
    pthread_join(t2, 0);
    return 0;
}
