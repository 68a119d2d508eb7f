// The writer sets the flag before the data: a reader that sees the flag may still read the
// old data. The rules must not prune this (the flag store does not follow the data store).
#include <assert.h>
#include <pthread.h>

int flag = 0;
int x = 0;

static void *writer(void *arg) {
    (void)arg;
    flag = 1;
    x = 5;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    if (flag) {
        int t = x;
        assert(t == 0 || t == 5); // PROVED(flow-sensitive)
        assert(t == 5); // FAILS! the data may not be written yet
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
