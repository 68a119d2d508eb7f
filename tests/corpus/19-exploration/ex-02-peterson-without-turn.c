// The failing neighbour of ex-01: without `turn`, both threads may pass their loops (each
// sets its flag after the other checked it), and a write of the other lands in between.
//PROOF: complete
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

int flag0, flag1, x;

static void *first(void *arg) {
    (void)arg;
    while (flag1 == 1) {
    }
    usleep(1000); // widens the window, so that plain runs fail too
    flag0 = 1;
    x = 0;
    usleep(1000);
    assert(x == 0); // FAILS! both may be inside
    flag0 = 0;
    return 0;
}

static void *second(void *arg) {
    (void)arg;
    while (flag0 == 1) {
    }
    usleep(1000);
    flag1 = 1;
    x = 1;
    usleep(1000);
    assert(x == 1); // FAILS! both may be inside
    flag1 = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
