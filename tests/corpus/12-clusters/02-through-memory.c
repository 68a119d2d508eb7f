// The flag reaches the assertion only through memory (a global the reader writes and reads
// back): the memory dependence of the slice must put the flag and the data in one cluster.
#include <assert.h>
#include <pthread.h>

int flag = 0, x = 0, seen = 0;

static void *writer(void *arg) {
    (void)arg;
    x = 4;
    x = 5;
    flag = 1;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    seen = flag;
    int s = seen;
    if (s) {
        int t = x;
        assert(t == 5); // PROVED(constraints)
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
