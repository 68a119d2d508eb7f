// Idiom 1 through two generations: main's stores before it created the parent of the reader,
// and the parent's own store before it created the reader, are both inherited.
#include <assert.h>
#include <pthread.h>

int a, b;

void *reader(void *arg) {
    assert(a == 1); // PROVED(constraints)
    assert(b == 2); // PROVED(constraints)
    return 0;
}

void *middle(void *arg) {
    pthread_t t;
    b = 2;
    pthread_create(&t, 0, reader, 0);
    pthread_join(t, 0);
    return 0;
}

int main(void) {
    pthread_t t;
    a = 0;
    a = 1;
    b = 1;
    pthread_create(&t, 0, middle, 0);
    pthread_join(t, 0);
    return 0;
}
