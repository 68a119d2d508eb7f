// A watchdog driver as the kernel drives it: open and release twice, read, write of any
// number of instances, ioctl, and an interrupt of any number of instances. `write` reads the
// user's buffer (the magic character 'V' arms the close), `read` writes into it, `ioctl` reads
// and writes through its integer argument as a pointer. Writers count the magic closes twice,
// once without the lock: two writers of 'V' at once lose one. `confirm` passes each pointer
// argument a fresh buffer whose bytes are an input ('V' among the candidates) and runs one
// round of the entries of any number of instances, then more.
//PARAM: --init wdt_init --entry wdt_open:2 --entry wdt_release:2 --entry wdt_read --entry wdt_write:* --entry wdt_ioctl --entry wdt_irq:*
#include <assert.h>
#include <pthread.h>

struct file {
    int flags;
    void *private_data;
};

#define EBUSY 16
#define WDIOC_KEEPALIVE 5

static struct wdt {
    pthread_mutex_t lock;
    int users;
    int timeout;
    int left;
    int expect_close;
    int magic;        // magic closes, counted without the lock (the bug)
    int magic_locked; // the same, under the lock
    int irqs;
} wdt;

int wdt_init(void) {
    pthread_mutex_init(&wdt.lock, 0);
    wdt.timeout = 60;
    wdt.left = 60;
    return 0;
}

int wdt_open(struct file *f) {
    pthread_mutex_lock(&wdt.lock);
    if (wdt.users >= 2) {
        pthread_mutex_unlock(&wdt.lock);
        return -EBUSY;
    }
    wdt.users++;
    f->private_data = &wdt;
    pthread_mutex_unlock(&wdt.lock);
    return 0;
}

int wdt_release(struct file *f) {
    pthread_mutex_lock(&wdt.lock);
    if (wdt.users > 0)
        wdt.users--;
    assert(wdt.users >= 0); // TODO: never below 0 (under the lock), with two releases
    pthread_mutex_unlock(&wdt.lock);
    return 0;
}

long wdt_write(struct file *f, const char *buf, unsigned long len) {
    if (len == 0)
        return 0;
    if (buf[0] == 'V') {
        int n = wdt.magic;
        wdt.magic = n + 1;
        pthread_mutex_lock(&wdt.lock);
        wdt.expect_close = 1;
        wdt.magic_locked++;
        assert(wdt.magic_locked <= wdt.magic); // FAILS! two writers of 'V' may both read 0
        pthread_mutex_unlock(&wdt.lock);
    }
    pthread_mutex_lock(&wdt.lock);
    wdt.left = wdt.timeout;
    pthread_mutex_unlock(&wdt.lock);
    return (long)len;
}

long wdt_read(struct file *f, char *buf, unsigned long len) {
    if (len == 0)
        return 0;
    pthread_mutex_lock(&wdt.lock);
    buf[0] = (char)wdt.left;
    pthread_mutex_unlock(&wdt.lock);
    return 1;
}

long wdt_ioctl(struct file *f, unsigned int cmd, unsigned long arg) {
    if (cmd == WDIOC_KEEPALIVE) {
        int *user = (int *)arg;
        pthread_mutex_lock(&wdt.lock);
        wdt.left = wdt.timeout;
        pthread_mutex_unlock(&wdt.lock);
        if (user)
            *user = 0;
    }
    return 0;
}

void wdt_irq(int irq) {
    pthread_mutex_lock(&wdt.lock);
    if (wdt.left > 0)
        wdt.left--;
    wdt.irqs++;
    pthread_mutex_unlock(&wdt.lock);
}
