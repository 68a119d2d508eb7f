// A load that reads another thread's store into one element of an array must not replace the
// thread's view of the other elements: `a[]` is one cell for all three.
#include <assert.h>
#include <pthread.h>

int a[3];

void *writer(void *arg) {
    a[0] = 7;
    return 0;
}

void *reader(void *arg) {
    a[2] = 3;
    int x = a[0];
    int y = a[2];
    assert(x != 7 || y == 7); // FAILS!: x = 7 after the writer, y = 3 always
    assert(y >= 0 && y <= 7); // PROVED: what any element may hold
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, writer, 0);
    pthread_create(&q, 0, reader, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
