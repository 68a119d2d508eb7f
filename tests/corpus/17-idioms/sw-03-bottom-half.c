// Idiom 2: an interrupt handler fills the device's buffer and raises `pending`; the bottom
// half yields until it sees the flag, then processes what the handler wrote.
#include <assert.h>
#include <pthread.h>
#include <sched.h>

struct dev {
    int len;
    int status;
    volatile int pending;
} dev;

void *irq_handler(void *arg) {
    dev.len = 4;
    dev.status = 1;
    dev.pending = 1;
    return 0;
}

void *bottom_half(void *arg) {
    while (dev.pending == 0)
        sched_yield();
    assert(dev.len == 4);    // PROVED(constraints)
    assert(dev.status == 1); // PROVED(constraints)
    return 0;
}

int main(void) {
    pthread_t irq, bh;
    pthread_create(&bh, 0, bottom_half, 0);
    pthread_create(&irq, 0, irq_handler, 0);
    pthread_join(bh, 0);
    pthread_join(irq, 0);
    return 0;
}
