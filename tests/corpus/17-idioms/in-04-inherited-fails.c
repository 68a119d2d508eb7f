// Neighbours of idiom 1 that really fail: a store after the create, a store of another
// instance of a parent that runs several times, a sibling's store, a store in the create loop.
#include <assert.h>
#include <pthread.h>

int after, sibling, looped, inst;

void *late(void *arg) {
    if (after == 0)
        after = 42;
    assert(after == 42); // FAILS!: main's 0 may land after the child's 42
    return 0;
}

void *other(void *arg) {
    sibling = 5;
    return 0;
}

void *reads_sibling(void *arg) {
    assert(sibling == 1); // FAILS!: the sibling may write 5 first
    return 0;
}

void *counter(void *arg) {
    assert(looped == 0); // FAILS!: the second iteration writes 1 after the first create
    return 0;
}

void *grandchild(void *arg) {
    assert(inst == (long)arg); // FAILS!: the other instance of the parent writes its own value
    return 0;
}

void *parent(void *arg) {
    pthread_t t;
    inst = (int)(long)arg;
    pthread_create(&t, 0, grandchild, arg);
    pthread_join(t, 0);
    return 0;
}

int main(void) {
    pthread_t t1, t2, t3, t4[2], t5[2];
    pthread_create(&t1, 0, late, 0);
    after = 0;
    sibling = 1;
    pthread_create(&t2, 0, other, 0);
    pthread_create(&t3, 0, reads_sibling, 0);
    for (int i = 0; i < 2; i++) {
        looped = i;
        pthread_create(&t4[i], 0, counter, 0);
    }
    for (long i = 0; i < 2; i++)
        pthread_create(&t5[i], 0, parent, (void *)i);
    return 0;
}
