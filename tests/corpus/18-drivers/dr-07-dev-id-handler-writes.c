// dr-05 with a handler that clears the magic on one interrupt line: the assumption removes
// only what request_irq itself might do, never what the handler it was given does.
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
    if (irq == 7)
        dev.magic = 0;
    pthread_mutex_lock(&dev.lock);
    if (dev.count < 8)
        dev.count++;
    pthread_mutex_unlock(&dev.lock);
}

int dev_read(void) {
    pthread_mutex_lock(&dev.lock);
    int c = dev.count;
    pthread_mutex_unlock(&dev.lock);
    assert(dev.magic == 0x4d44); // FAILS! the handler of line 7 clears it
    return c;
}

int dev_init(void) {
    pthread_mutex_init(&dev.lock, 0);
    dev.magic = 0x4d44;
    return request_irq(5, dev_irq, 0, "mydev", &dev);
}
