// Neighbours of idiom 2 that really fail: the flag published before the data, a loop that may
// also leave on a timeout, a flag the waiter set itself, a flag set before the waiter started.
#include <assert.h>
#include <pthread.h>

int data1, flag1;
int data2, flag2;
int data3, flag3;
int data4, flag4;

void *early_producer(void *arg) {
    flag1 = 1;
    data1 = 42;
    return 0;
}

void *early_consumer(void *arg) {
    while (!flag1) {
    }
    assert(data1 == 42); // FAILS!: the flag is raised before the data is written
    return 0;
}

void *producer2(void *arg) {
    data2 = 42;
    flag2 = 1;
    return 0;
}

void *impatient(void *arg) {
    int tries = 0;
    while (!flag2 && tries < 3)
        tries++;
    assert(data2 == 42); // FAILS!: the loop may give up before the flag is raised
    return 0;
}

void *producer3(void *arg) {
    data3 = 42;
    flag3 = 1;
    return 0;
}

void *self_raiser(void *arg) {
    flag3 = 1;
    while (!flag3) {
    }
    assert(data3 == 42); // FAILS!: the waiter's own store lets it through at once
    return 0;
}

void *producer4(void *arg) {
    data4 = 42;
    flag4 = 1;
    return 0;
}

void *late_waiter(void *arg) {
    while (!flag4) {
    }
    assert(data4 == 42); // FAILS!: main raised the flag before creating the waiter
    return 0;
}

int main(void) {
    pthread_t t[8];
    pthread_create(&t[0], 0, early_consumer, 0);
    pthread_create(&t[1], 0, early_producer, 0);
    pthread_create(&t[2], 0, impatient, 0);
    pthread_create(&t[3], 0, producer2, 0);
    pthread_create(&t[4], 0, self_raiser, 0);
    pthread_create(&t[5], 0, producer3, 0);
    flag4 = 1;
    pthread_create(&t[6], 0, late_waiter, 0);
    pthread_create(&t[7], 0, producer4, 0);
    for (int i = 0; i < 8; i++)
        pthread_join(t[i], 0);
    return 0;
}
