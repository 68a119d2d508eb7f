// The values a store writes are widened, after a few rounds of the thread-modular fixpoint,
// like the thread's values of the cell, but they must stay within them: `c = v` writes 0 in
// the first rounds and 1 only once the chain x1 -> x2 -> x3 has reached `setter` (created
// first, it is analysed first in every round). Widened on its own, the store's value became
// [0, +inf] while the thread's values of `c` stayed [0, 5] (`c = 5` covers [0, 1]), so the
// flow-sensitive modes, reading the store, lost `v <= 5`, which flow-insensitive proved.
// The sleeps give the schedule in which the reader sees the 1 (the FAILS! below).
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static int c, x1, x2, x3;

static void *setter(void *arg) {
    (void)arg;
    usleep(300000);
    int v = x3;
    if (v > 1)
        v = 1;
    if (v < 0)
        v = 0;
    c = v;
    usleep(300000);
    c = 5;
    return 0;
}

static void *copy3(void *arg) {
    (void)arg;
    usleep(200000);
    x3 = x2;
    return 0;
}

static void *copy2(void *arg) {
    (void)arg;
    usleep(100000);
    x2 = x1;
    return 0;
}

static void *source(void *arg) {
    (void)arg;
    x1 = 1;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    usleep(450000);
    int v = c;
    assert(v <= 5); // PROVED c is 0, 1 or 5
    assert(v != 1); // FAILS! the chain brings 1 to the setter, which stores it before 5
    return 0;
}

int main(void) {
    pthread_t t[5];
    pthread_create(&t[0], 0, setter, 0);
    pthread_create(&t[1], 0, copy3, 0);
    pthread_create(&t[2], 0, copy2, 0);
    pthread_create(&t[3], 0, source, 0);
    pthread_create(&t[4], 0, reader, 0);
    for (int i = 0; i < 5; i++)
        pthread_join(t[i], 0);
    return 0;
}
