// Two unrelated flag/data pairs and a load nothing depends on: the optimized mode makes one
// cluster per pair (each assertion's slice) and gives the unused load no choices. The pairs
// are proved as with one product of all loads; the second data may still be overwritten after
// its flag, which must stay a failure.
#include <assert.h>
#include <pthread.h>

int flag = 0, x = 0, ready = 0, y = 0, noise = 0;

static void *first(void *arg) {
    (void)arg;
    x = 4;
    x = 5;
    flag = 1;
    noise = 7;
    return 0;
}

static void *second(void *arg) {
    (void)arg;
    y = 1;
    ready = 1;
    y = 2;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    int n = noise;
    (void)n;
    int b = flag;
    int r = ready;
    if (b) {
        int t = x;
        assert(t == 5); // PROVED(constraints)
    }
    if (r) {
        int u = y;
        assert(u >= 1); // PROVED(constraints)
        assert(u == 2); // FAILS! y = 2 may come after the reader saw ready
    }
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    pthread_create(&c, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
