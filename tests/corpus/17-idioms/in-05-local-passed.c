// Idiom 1 through a pointer: a local of main that main set before creating the thread and
// passed to it is in the thread's entry state; a write after the create is not.
#include <assert.h>
#include <pthread.h>

int c;

void *reader(void *arg) {
    int *p = arg;
    assert(*p >= 5); // PROVED(constraints): 5 or 10, the 0 was overwritten before the create
    return 0;
}

void *racy_reader(void *arg) {
    int *p = arg;
    assert(*p == 5); // FAILS!: main writes 6 while the thread runs
    return 0;
}

int main(void) {
    pthread_t t, u;
    int x = 0, y = 5;
    if (c)
        x = 5;
    else
        x = 10;
    pthread_create(&t, 0, reader, &x);
    pthread_join(t, 0);
    pthread_create(&u, 0, racy_reader, &y);
    y = 6;
    pthread_join(u, 0);
    return 0;
}
