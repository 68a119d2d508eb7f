// A writer sets x to 1 and then to 2; a reader running in between sees the intermediate 1.
#include <assert.h>
#include <pthread.h>

int x = 0;

static void *writer(void *arg) {
    (void)arg;
    x = 1;
    x = 2;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    int v = x;
    assert(v != 1); // FAILS! the reader may run between the two stores
    assert(v >= 0 && v <= 2); // PROVED
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
