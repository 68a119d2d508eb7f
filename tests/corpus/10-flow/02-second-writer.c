// Figure 1 of the paper with a second writer of x that is not ordered with the reader: the
// combination (flag from thread1, x from thread3) is feasible and must not be pruned.
#include <assert.h>
#include <pthread.h>

int flag = 0;
int x = 0;

static void *thread1(void *arg) {
    (void)arg;
    x = 4;
    x = 5;
    flag = 1;
    return 0;
}

static void *thread2(void *arg) {
    (void)arg;
    if (flag) {
        int t1 = x;
        assert(t1 == 4 || t1 == 5); // PROVED(constraints): 0 is overwritten before the flag
        assert(t1 == 5); // FAILS! thread3 may write 4 after thread1's 5
    }
    return 0;
}

static void *thread3(void *arg) {
    (void)arg;
    x = 4;
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, thread1, 0);
    pthread_create(&b, 0, thread2, 0);
    pthread_create(&c, 0, thread3, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
