// Idiom 1: a child inherits its parent's view. A store the parent made before creating the
// child is in the child's entry state, so reading it is covered by the child's own view.
#include <assert.h>
#include <pthread.h>

int nowayout, expect_close;

void *closer(void *arg) {
    if (!nowayout)
        expect_close = 42;
    assert(expect_close == 42); // PROVED(constraints): main's 0 was written before the create
    return 0;
}

int main(void) {
    pthread_t t;
    expect_close = 0;
    pthread_create(&t, 0, closer, 0);
    return 0;
}
