// The pruning example with the argument passed by pointer, as most pthread code does: each
// thread starts from the state at its create call, so both instances see their own argument.
#include <assert.h>
#include <pthread.h>

int x = 0;
static int five = 5;
static int ten = 10;

static void *thr(void *v) {
    int t1 = *(int *)v;
    int t2 = x;
    x = t1 + t2; // racy and unbounded: widened, never needed for the assertion
    assert(t1 >= 5); // PROVED
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, thr, &five);
    pthread_create(&b, 0, thr, &ten);
    x = 1;
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
