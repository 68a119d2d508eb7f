// Idiom 2: a consumer that spins on a flag knows the data the flag publishes. The iteration
// that leaves the loop read `flag = 1`, which follows `data = 42` in the producer.
#include <assert.h>
#include <pthread.h>

int data, flag;

void *producer(void *arg) {
    data = 42;
    flag = 1;
    return 0;
}

void *consumer(void *arg) {
    while (!flag) {
    }
    assert(data == 42); // PROVED(constraints)
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    return 0;
}
