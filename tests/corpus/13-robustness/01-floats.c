// Floating point is not modelled: values computed from it are any value, never a proof.
#include <assert.h>
#include <pthread.h>

double d = 1.5;
float f;
int x;

static void *t(void *a) {
    (void)a;
    d = d * 2.0;
    f = (float)d;
    x = (int)d;
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(x == 3); // MAY-FAIL: true; floats are any value
    assert(x != 3); // FAILS!
    return 0;
}
