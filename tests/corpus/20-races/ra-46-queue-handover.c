// A block handed over through a mutex-protected queue (issue 35, class 8): the producer fills
// each node before it puts it on the queue under the lock and never touches it after; the
// consumer takes it off under the same lock and owns it from then on. The lock orders the
// producer's writes before the consumer's reads (the consumer's lock comes after the unlock
// that published the node). The racy neighbour: the producer writes a node's `late` field after
// putting it on the queue.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(1000) before the late write): a data race
// on `late` (the producer's write after the hand-over against the consumer's read); none on
// `value` or `next`.
// The hand-over rule (`races::handover`) needs an object whose address only the program's
// own stores and loads move: the consumer's integer reads of the node's `value` and `late`
// miss its pointer bytes (`next`, at bytes 8..16, the only place a pointer is stored into it),
// so they expose nothing.
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct node {
    int value;
    int late;
    struct node *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static struct node *head;
static int done;
static struct node *used; // the consumer's, freed by main after the join

static void *consumer(void *arg) {
    (void)arg;
    long sum = 0;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (!head && !done)
            pthread_cond_wait(&ready, &lock);
        struct node *n = head;
        if (n)
            head = n->next;
        pthread_mutex_unlock(&lock);
        if (!n)
            break;
        sum += n->value; // NO-RACE: written before the hand-over
        sum += n->late;  // RACE!: the producer writes it after the hand-over
        n->value = 0;    // NO-RACE: the consumer owns the node now
        n->next = used;
        used = n;
    }
    return (void *)sum;
}

int main(void) {
    pthread_t c;
    pthread_create(&c, 0, consumer, 0);
    for (int i = 0; i < 8; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = i; // NO-RACE: before the hand-over
        n->late = 0;  // NO-RACE: before the hand-over
        pthread_mutex_lock(&lock);
        n->next = head;
        head = n;
        pthread_cond_signal(&ready);
        pthread_mutex_unlock(&lock);
        usleep(1000);
        n->late = i; // RACE!: the consumer may have the node already
    }
    pthread_mutex_lock(&lock);
    done = 1;
    pthread_cond_signal(&ready);
    pthread_mutex_unlock(&lock);
    void *r;
    pthread_join(c, &r);
    while (used) {
        struct node *n = used;
        used = n->next; // NO-RACE: after the join
        free(n);
    }
    return (int)(long)r;
}
