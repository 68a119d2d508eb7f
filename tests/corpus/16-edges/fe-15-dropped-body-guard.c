// A user's `-O0` makes clang drop the inline-only body again: each call to the missing
// definition is then an assertion that may fail (the body may hold a failing assertion, as
// here), never a proof.
//PARAM: -- -O0
#include <assert.h>
#include <pthread.h>

int g;
static int h = 2;

inline void release(void) {
    assert(g == 0); /* fails, but clang drops this body at -O0 */
}

static void *worker(void *arg) {
    g = 1;
    release(); // FAILS! the missing body of release
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    assert(g == 1); // MAY-FAIL: true, but the missing body may write g
    assert(h == 2); // PROVED: an inline definition may not name a static (C11 6.7.4p3)
    return 0;
}
