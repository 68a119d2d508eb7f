// A signal handler runs when the signal is raised: `signal` registers a function whose address
// escapes, which the analysis runs on its own as code that may run at any time.
#include <assert.h>
#include <signal.h>

int x;

static void handler(int s) {
    (void)s;
    x = 5;
}

int main(void) {
    signal(SIGINT, handler);
    raise(SIGINT);
    assert(x == 0); // FAILS! the handler ran
    return 0;
}
