// The address of a local of main is passed to a thread, which writes through it.
#include <assert.h>
#include <pthread.h>

static void *producer(void *arg) {
    int *out = arg;
    *out = 42;
    return 0;
}

int main(void) {
    pthread_t t;
    int data = 0;
    int untouched = 8;
    int *u = &untouched;
    *u = 9;
    pthread_create(&t, 0, producer, &data);
    pthread_join(t, 0);
    int d = data;
    assert(d == 0 || d == 42); // PROVED(flow-sensitive): own 0, or the thread's 42
    assert(d >= 0 && d <= 42); // PROVED
    assert(d == 42); // PROVED(constraints): the join orders the thread's store before the load
    assert(untouched == 9); // PROVED: the thread has no pointer to it
    return 0;
}
