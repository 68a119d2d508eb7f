// A Linux-style character driver: open, read, write, ioctl and release in a
// `struct file_operations` table registered through a kernel function the analysis does
// not see, an interrupt handler handed to another, a mutex and an interrupt lock. The
// harness comes from the table (--entries-from: any number of instances of each entry).
//PARAM: --init mydev_init --entries-from mydev_fops --entry mydev_irq:*
#include <assert.h>
#include <pthread.h>

struct file { int flags; void *private_data; };
struct file_operations {
    void *owner;
    int (*open)(struct file *);
    long (*read)(struct file *, char *, unsigned long);
    long (*write)(struct file *, const char *, unsigned long);
    long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
    int (*release)(struct file *);
};
extern int register_chrdev(unsigned int major, const char *name,
                           const struct file_operations *fops);
extern int request_irq(unsigned int irq, void (*handler)(int), unsigned long flags,
                       const char *name, void *dev_id);

#define RING 16
#define MAX_USERS 4
#define EBUSY 16

static struct mydev {
    pthread_mutex_t lock;     // users, count
    pthread_mutex_t irq_lock; // pending, irq_count
    unsigned char buf[RING];  // an array beside the mutexes folds no lock
    int users;
    int count;
    int pending;
    int irq_count;
} dev;

static int mydev_open(struct file *f) {
    pthread_mutex_lock(&dev.lock);
    if (dev.users >= MAX_USERS) {
        pthread_mutex_unlock(&dev.lock);
        return -EBUSY;
    }
    dev.users++;
    pthread_mutex_unlock(&dev.lock);
    return 0;
}

static int mydev_release(struct file *f) {
    pthread_mutex_lock(&dev.lock);
    if (dev.users > 0)
        dev.users--;
    assert(dev.users >= 0); // PROVED: under the mutex, with any number of releases
    pthread_mutex_unlock(&dev.lock);
    return 0;
}

static long mydev_write(struct file *f, const char *b, unsigned long n) {
    pthread_mutex_lock(&dev.lock);
    if (dev.count < RING) {
        dev.buf[dev.count] = b ? (unsigned char)n : 0;
        dev.count++;
    }
    assert(dev.count <= RING); // PROVED: a bounded counter, many writers
    pthread_mutex_unlock(&dev.lock);
    return n;
}

static long mydev_read(struct file *f, char *b, unsigned long n) {
    pthread_mutex_lock(&dev.lock);
    if (dev.count > 0)
        dev.count--;
    assert(dev.count >= 0); // PROVED
    pthread_mutex_unlock(&dev.lock);
    return n;
}

static long mydev_ioctl(struct file *f, unsigned int cmd, unsigned long arg) {
    if (cmd == 1) {
        pthread_mutex_lock(&dev.irq_lock);
        dev.pending = 1;
        pthread_mutex_unlock(&dev.irq_lock);
    } else if (cmd == 2) {
        // The bug: the interrupt count is read twice without the interrupt lock.
        int before = dev.irq_count;
        int after = dev.irq_count;
        assert(before == after); // FAILS! an interrupt may come between the two reads
    }
    return 0;
}

void mydev_irq(int irq) {
    pthread_mutex_lock(&dev.irq_lock);
    dev.irq_count++;
    if (dev.pending)
        dev.pending = 0;
    assert(dev.pending == 0); // PROVED: under the interrupt lock
    pthread_mutex_unlock(&dev.irq_lock);
}

static const struct file_operations mydev_fops = {
    .owner = 0,
    .open = mydev_open,
    .read = mydev_read,
    .write = mydev_write,
    .unlocked_ioctl = mydev_ioctl,
    .release = mydev_release,
};

int mydev_init(void) {
    pthread_mutex_init(&dev.lock, 0);
    pthread_mutex_init(&dev.irq_lock, 0);
    if (request_irq(5, mydev_irq, 0, "mydev", 0))
        return -EBUSY;
    return register_chrdev(10, "mydev", &mydev_fops);
}
