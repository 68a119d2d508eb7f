// A ring buffer right after the mutex, in a program that also uses a rwlock (a larger lock
// type): the mutex is still one lock, so the counter it protects stays bounded with any
// number of writers. Its failing neighbour is the unlocked read below.
#include <assert.h>
#include <pthread.h>

static struct {
    pthread_mutex_t lock;
    char ring[16];
    int count;
    int hits;
} dev = { PTHREAD_MUTEX_INITIALIZER };
static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static int table;

static void *writer(void *arg) {
    pthread_mutex_lock(&dev.lock);
    if (dev.count < 16)
        dev.ring[dev.count++] = 'x';
    assert(dev.count <= 16); // PROVED: under the mutex, with the buffer beside it
    pthread_mutex_unlock(&dev.lock);
    dev.hits++;
    pthread_rwlock_rdlock(&table_lock);
    int t = table;
    pthread_rwlock_unlock(&table_lock);
    return (void *)(long)t;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, writer, 0);
    int a = dev.hits;
    int b = dev.hits;
    assert(a == b); // FAILS! the writers bump hits without the mutex
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return 0;
}
