// The device struct handed to the kernel as `request_irq`'s `dev_id`, as drivers do: without
// an assumption, the kernel function may change all of it, so nothing set by the init holds;
// `--assume-no-write request_irq` says it keeps the pointer and changes nothing. Its
// neighbour dr-06 is the same driver without the assumption.
//PARAM: --init dev_init --entry dev_irq:* --entry dev_read:* --assume-no-write request_irq
#include <assert.h>
#include <pthread.h>

extern int request_irq(unsigned int irq, void (*handler)(int, void *), unsigned long flags,
                       const char *name, void *dev_id);

struct mydev {
    pthread_mutex_t lock;
    int magic;
    int count;
};
static struct mydev dev;

void dev_irq(int irq, void *dev_id) {
    pthread_mutex_lock(&dev.lock);
    if (dev.count < 8)
        dev.count++;
    pthread_mutex_unlock(&dev.lock);
}

int dev_read(void) {
    pthread_mutex_lock(&dev.lock);
    int c = dev.count;
    pthread_mutex_unlock(&dev.lock);
    assert(dev.magic == 0x4d44); // PROVED: set by the init; nothing else writes it
    return c;
}

int dev_init(void) {
    pthread_mutex_init(&dev.lock, 0);
    dev.magic = 0x4d44;
    return request_irq(5, dev_irq, 0, "mydev", &dev);
}
