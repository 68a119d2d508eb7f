// FSE'16, the loop example (section 4): thread1 creates thread2, loads x in a loop, then
// creates thread3. The load may see thread2's stores but never thread3's 10, which must happen
// after every load of the loop (the create of thread3 follows the loop).
#include <assert.h>
#include <pthread.h>

int x = 0;

static void *thread2(void *arg) {
    (void)arg;
    x = 1;
    x = 2;
    return 0;
}

static void *thread3(void *arg) {
    (void)arg;
    x = 10;
    return 0;
}

static void *thread1(void *arg) {
    (void)arg;
    pthread_t t2, t3;
    pthread_create(&t2, 0, thread2, 0);
    for (int i = 0; i < 5; i++) {
        int t1 = x;
        assert(t1 <= 2); // PROVED(constraints): 0, 1 or 2; thread3's 10 comes later
    }
    pthread_create(&t3, 0, thread3, 0);
    pthread_join(t2, 0);
    pthread_join(t3, 0);
    return 0;
}

int main(void) {
    pthread_t t1;
    pthread_create(&t1, 0, thread1, 0);
    pthread_join(t1, 0);
    return 0;
}
