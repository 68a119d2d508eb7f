// Create and join order: thread b is created after a was joined, so b cannot read the initial
// value that a overwrote. A store after the join stays visible to a thread still running.
#include <assert.h>
#include <pthread.h>

int x = 0;
int y = 0;

static void *a_fn(void *arg) {
    (void)arg;
    x = 7;
    return 0;
}

static void *b_fn(void *arg) {
    (void)arg;
    int v = x;
    assert(v == 7); // PROVED(constraints): a's 7 overwrote the initial 0 before b was created
    return 0;
}

static void *c_fn(void *arg) {
    (void)arg;
    int w = y;
    assert(w != 2); // FAILS! main writes 2 after joining a, while c still runs
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&c, 0, c_fn, 0);
    pthread_create(&a, 0, a_fn, 0);
    pthread_join(a, 0);
    y = 2;
    pthread_create(&b, 0, b_fn, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    int z = x;
    assert(z == 7); // PROVED(constraints): after the join, main's own view of x is stale
    return 0;
}
