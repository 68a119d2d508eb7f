// `pthread_once` runs its init routine: its store is seen after the call, and an assertion in
// the routine is analysed (not unreachable).
#include <assert.h>
#include <pthread.h>

static int x;
static int y;
static int z;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
    assert(z == 0); // FAILS! main sets z before the call
    x = 1;
}

int main(void) {
    int local = 0;
    z = 1;
    pthread_once(&once, init);
    assert(local == 0); // PROVED
    assert(x == 0);     // FAILS! the init routine wrote it
    return 0;
}
