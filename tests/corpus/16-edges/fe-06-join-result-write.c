// A thread returns the address of a static object; `main` gets it back through
// `pthread_join`'s `retval` and writes through it; a second thread reads the object.
#include <assert.h>
#include <pthread.h>

static int box;
static int untouched;

static void *producer(void *arg) {
    return &box;
}

static void *checker(void *arg) {
    assert(untouched == 0); // PROVED
    assert(box == 0);       // FAILS! main may write 5 into box first
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    void *r;
    pthread_create(&t1, 0, producer, 0);
    pthread_join(t1, &r);
    *(int *)r = 5;
    pthread_create(&t2, 0, checker, 0);
    pthread_join(t2, 0);
    return 0;
}
