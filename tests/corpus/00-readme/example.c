// The bundled example of the README: a small character-device driver.
//
// `dev_init` runs in main before any thread exists. A writer thread fills the device buffer and
// then switches the device to flush mode; a reader thread polls the device. Six assertions hold
// in every interleaving and the thread-modular baseline proves them; one really fails (the reader
// may run after the writer switched modes), so `watts analyze` prints
// "7 assertions: 6 proved, 1 may fail".
#include <assert.h>
#include <pthread.h>

#define MODE_IDLE 0
#define MODE_WRITE 2
#define MODE_FLUSH 3

struct device {
    int open;   // 1 once dev_init has run
    int mode;   // MODE_*
    int count;  // bytes in the buffer
    int status; // 1 when the writer is done
};

static struct device dev;
static int lock_init;

static void dev_init(void) {
    dev.open = 1;
    dev.mode = MODE_WRITE;
    dev.count = 0;
    lock_init = 1;
}

static void *writer(void *arg) {
    int n = *(int *)arg;
    assert(dev.open == 1); // PROVED: set before the threads were created, never changed
    assert(lock_init);     // PROVED
    for (int i = 0; i < n; i++)
        dev.count = i + 1;
    assert(dev.count <= 8); // PROVED: the loop bound (widening, then narrowing)
    dev.mode = MODE_FLUSH;
    dev.status = 1;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    int c = dev.count;
    assert(c >= 0 && c <= 8); // PROVED: 0 initially, 1..8 from the writer
    int m = dev.mode;
    assert(m != MODE_IDLE); // PROVED: 2 or 3
    assert(m == MODE_WRITE); // FAILS! the writer may already have switched to MODE_FLUSH
    return 0;
}

int main(void) {
    pthread_t w, r;
    int len = 8;
    dev_init();
    pthread_create(&w, 0, writer, &len);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    int s = dev.status;
    assert(s <= 1); // PROVED
    return 0;
}
