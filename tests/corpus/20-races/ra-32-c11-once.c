// C11's `call_once(flag, f)` is `pthread_once` (issue 35, class 7): `f` runs once per flag,
// and no `call_once` with that flag returns before it ended; what it writes is then read
// without a race. A routine run through two flags runs twice, in two threads: a race.
// gcc 12's ThreadSanitizer does not run C11 threads (glibc 2.36's `thrd_create` calls
// `pthread_create` inside libc, past TSan's interceptor: SEGV), so the verdict is helgrind's
// (valgrind 3.19, gcc -g -O0): a data race on `runs` (`count` run by main and by the worker).
// It also reports main's read of `config` against `setup`'s write when the worker ran
// `setup`: helgrind does not see the order `call_once` gives (C11 7.26.2.1: the call that
// runs `f` returns before any other call with the flag does), so that one is not a race
// (ThreadSanitizer sees the order in the `pthread_once` version, ra-17-once.c, where it
// reports only the read made without `pthread_once`).
#include <threads.h>

once_flag once = ONCE_FLAG_INIT, first = ONCE_FLAG_INIT, second = ONCE_FLAG_INIT;
int config, runs, seen;

static void setup(void) {
    config = 42; // NO-RACE: runs once, before every `call_once(&once, ..)` returns
}

static void count(void) {
    runs++; // RACE!: run once for each flag, by two threads
}

static int worker(void *arg) {
    (void)arg;
    call_once(&once, setup);
    seen = config; // NO-RACE: after `call_once`; main reads it after the join
    call_once(&second, count);
    return 0;
}

int main(void) {
    thrd_t t;
    thrd_create(&t, worker, 0);
    call_once(&once, setup);
    int c = config; // NO-RACE: after `call_once`
    call_once(&first, count);
    thrd_join(t, 0);
    return c + seen; // NO-RACE: after the join
}
