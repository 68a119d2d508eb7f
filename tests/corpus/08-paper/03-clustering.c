// FSE'16, the clustering example (section 6.2): thread1 sets x and y to 1; thread2 checks that
// both are non-negative. Independent slices; the baseline already proves both.
#include <assert.h>
#include <pthread.h>

int x = 0;
int y = 0;

static void *thread1(void *arg) {
    (void)arg;
    x = 1;
    y = 1;
    return 0;
}

static void *thread2(void *arg) {
    (void)arg;
    int t1 = x;
    int t2 = y;
    assert(t1 >= 0); // PROVED
    assert(t2 >= 0); // PROVED
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
