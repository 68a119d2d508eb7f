// A `pthread_once` routine runs at the call when the call runs at most once and is the only
// code that names its control object and its routine (issue 35): the routine is inlined there.
// Where other code may run it (a second call with the control object, a call that runs twice),
// the call stays a library call and the routine is analysed on its own.
#include <assert.h>
#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_once_t shared = PTHREAD_ONCE_INIT;
static pthread_once_t again = PTHREAD_ONCE_INIT;
static int ready, which, runs;

static void init(void) { ready = 42; }

static void first(void) { which = 1; }
static void second(void) { which = 2; }

static void count(void) { runs = runs + 1; }

static void setup(void) { pthread_once(&again, count); }

int main(void) {
    pthread_once(&once, init);
    assert(ready == 42); // PROVED: `init` ran at the call
    // Only the first call with `shared` runs its routine: `second` never runs.
    pthread_once(&shared, first);
    pthread_once(&shared, second);
    assert(which == 2); // FAILS! `which` is 1
    // `setup` runs twice, its `pthread_once` once: `runs` is 1.
    setup();
    setup();
    assert(runs == 2); // FAILS! `count` ran once
    assert(runs == 1); // MAY-FAIL: true; the routine is analysed on its own
    return 0;
}
