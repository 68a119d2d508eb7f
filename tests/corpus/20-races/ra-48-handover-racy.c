// A block filled before its address is published, but published without order (issue 35,
// class 8, where the hand-over rule must not fire): the producer writes the node, then stores
// its address in a plain global that the consumer spins on. The node's address moves through a
// racing store and load, so nothing orders the producer's write before the consumer's read:
// both the pointer and the field race (C11; a plain spin orders nothing). The neighbour: the
// same node handed over under a mutex, where the rule applies.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on `slot` (the store against the
// spinning load) and on the node's `v` (the producer's write against the consumer's read);
// none on `locked`'s node.
#include <pthread.h>
#include <stdlib.h>

struct node {
    int v;
};

static struct node *slot;
static struct node *locked;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *consumer(void *arg) {
    (void)arg;
    struct node *p;
    while (!(p = slot)) // RACE!: the producer stores it without order
        ;
    int r = p->v; // RACE!: written before a publication that orders nothing
    struct node *q = 0;
    while (!q) {
        pthread_mutex_lock(&m);
        q = locked;
        pthread_mutex_unlock(&m);
    }
    r += q->v; // NO-RACE: written before the hand-over under the mutex
    return (void *)(long)r;
}

int main(void) {
    pthread_t c;
    // Allocated before the consumer starts: ThreadSanitizer takes an allocation as a write of
    // the block, and would pair the consumer's read with it rather than with the field's write.
    struct node *n = malloc(sizeof *n);
    pthread_create(&c, 0, consumer, 0);
    n->v = 1;  // RACE!: the consumer reads it through the racing `slot`
    slot = n;  // RACE!: the consumer spins on it
    struct node *k = malloc(sizeof *k);
    k->v = 2;  // NO-RACE: before the hand-over under the mutex
    pthread_mutex_lock(&m);
    locked = k;
    pthread_mutex_unlock(&m);
    pthread_join(c, 0);
    return 0;
}
