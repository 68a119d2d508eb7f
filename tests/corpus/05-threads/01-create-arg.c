// pthread_create passes an argument: a pointer to a local of main, or an integer cast to void *.
// A thread starts from the abstract state at its create call.
#include <assert.h>
#include <pthread.h>

int shared = 0;

static void *by_pointer(void *arg) {
    int v = *(int *)arg;
    assert(v == 5); // PROVED: main wrote 5 before the create, and nobody writes it again
    assert(shared == 3); // PROVED: the state at the create call; no thread stores another value
    return 0;
}

static void *by_value(void *arg) {
    long v = (long)arg;
    assert(v == 7); // TODO: true; the integer inside a pointer is not tracked today
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    int arg = 5;
    shared = 3;
    pthread_create(&t1, 0, by_pointer, &arg);
    pthread_create(&t2, 0, by_value, (void *)7L);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
