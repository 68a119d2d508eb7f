// One cluster of three loads with several stores each: enough combinations that the optimized
// mode analyses them in parallel (tests/cli.rs compares the output of --jobs 1, 2 and 4).
#include <assert.h>
#include <pthread.h>

int x = 0, y = 0, z = 0;

static void *w1(void *arg) {
    (void)arg;
    x = 1;
    y = 2;
    z = 3;
    return 0;
}

static void *w2(void *arg) {
    (void)arg;
    x = 4;
    y = 5;
    z = 6;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    int a = x;
    int b = y;
    int c = z;
    assert(a + b + c <= 15); // PROVED
    assert(a + b + c != 9); // FAILS! 1 + 2 + 6, or 4 + 5 + 0
    return 0;
}

int main(void) {
    pthread_t t[3];
    pthread_create(&t[0], 0, w1, 0);
    pthread_create(&t[1], 0, w2, 0);
    pthread_create(&t[2], 0, reader, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return 0;
}
