// Thread ends: thrd_exit and the raw exit system call end the calling thread only (the explorer
// runs thrd_exit, and does not run past the system call).
#include <assert.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <threads.h>
#include <unistd.h>

static int x = 0;
static int y = 0;

static void *f(void *arg) {
    if (arg)
        thrd_exit(0);
    x = 1;
    return 0;
}

static void *g(void *arg) {
    (void)arg;
    syscall(SYS_exit, 0);
    y = 1;
    return 0;
}

extern int __VERIFIER_nondet_int(void);

// One check per execution: a failed assertion ends the process, so a second one after it would
// never be reached (and no execution would fail it).
int main(void) {
    pthread_t a, b;
    if (__VERIFIER_nondet_int()) {
        pthread_create(&a, 0, f, (void *)1);
        pthread_join(a, 0);
        assert(x == 1); // FAILS! thrd_exit ended f
    } else {
        pthread_create(&b, 0, g, 0);
        pthread_join(b, 0);
        assert(y == 1); // FAILS! the exit system call ended g
    }
    return 0;
}
