// An `atexit` handler runs when `main` returns: its assertions are checked, from any state.
#include <assert.h>
#include <stdlib.h>

int h;

static void bye(void) {
    assert(h == 0); // FAILS! main set h to 2 before it returned
}

int main(void) {
    atexit(bye);
    h = 2;
    return 0;
}
