// FSE'16, figure 1: thread1 writes x = 4, x = 5, then flag = true; thread2 reads x only after
// seeing the flag. Flow-insensitively the read of x may see 0, 4 or 5; the flow-sensitive
// combination (flag from thread1, x = 4) is infeasible only by the happens-before rules.
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

bool flag = false;
int x = 0;

static void *thread1(void *arg) {
    (void)arg;
    x = 4;
    x = 5;
    flag = true;
    return 0;
}

static void *thread2(void *arg) {
    (void)arg;
    bool b1 = flag;
    if (b1) {
        int t1 = x;
        assert(t1 == 5); // PROVED(constraints)
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, thread1, 0);
    pthread_create(&b, 0, thread2, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
