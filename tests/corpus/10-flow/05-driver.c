// A driver modelled with threads: main initialises the device, then open, write, ioctl and
// release entry points run concurrently, guarded by flags.
#include <assert.h>
#include <pthread.h>

struct dev {
    int lock_init;
    int open;
    int closed;
    int expect_close;
    int count;
};

static struct dev d;

static void *dev_open(void *arg) {
    (void)arg;
    assert(d.lock_init == 1); // PROVED: set before any thread exists
    d.open = 1;
    return 0;
}

static void *dev_write(void *arg) {
    (void)arg;
    assert(d.lock_init == 1); // PROVED
    int o = d.open;
    if (o == 1) {
        int c = d.count;
        d.count = c + 1;
        d.expect_close = 42;
    }
    return 0;
}

static void *dev_ioctl(void *arg) {
    (void)arg;
    assert(d.lock_init == 1); // PROVED
    int e = d.expect_close;
    assert(e == 0 || e == 42); // PROVED(flow-sensitive)
    return 0;
}

static void *dev_release(void *arg) {
    (void)arg;
    int e = d.expect_close;
    if (e == 42)
        d.closed = 1;
    int o = d.open;
    assert(o == 1); // FAILS! release may run before open
    return 0;
}

int main(void) {
    pthread_t t[5];
    d.lock_init = 1;
    d.open = 0;
    pthread_create(&t[0], 0, dev_open, 0);
    pthread_create(&t[1], 0, dev_write, 0);
    pthread_create(&t[2], 0, dev_write, 0);
    pthread_create(&t[3], 0, dev_ioctl, 0);
    pthread_create(&t[4], 0, dev_release, 0);
    for (int i = 0; i < 5; i++)
        pthread_join(t[i], 0);
    int c = d.count;
    assert(c >= 0); // TODO: two writers increment without a lock
    return 0;
}
