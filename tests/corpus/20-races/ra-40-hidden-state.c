// Library functions that POSIX does not require to be thread-safe (XSH 2.9.1: `strtok`,
// `rand`, `localtime`, `getenv`/`setenv`, `strerror`, ...) keep state of their own between
// calls; two calls that use one piece of it from threads that nothing orders race on it
// (issue 35, class 3). `rand` and `srand` share the seed, `localtime` and `gmtime` the static
// `struct tm`, `getenv` and `setenv` the environment. `strtok_r` reads and writes the caller's
// save pointer: two threads that share one race on it.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race in `localtime` (line 28, its
// interceptor sees the static `struct tm`) and none of the others: TSan cannot see the library's
// internal state (glibc is not instrumented); POSIX XSH 2.9.1 says these functions need not be
// thread-safe. helgrind (valgrind 3.19): races inside `localtime` (line 28) and between
// `getenv` and `setenv` (line 29); glibc's `strtok`, `rand` (which glibc locks) and `strerror`
// are in its suppressions. `shared_save` is written by glibc, which neither tool instruments.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *shared_save;

static void *worker(void *arg) {
    (void)arg;
    char buf[32] = "a b c";
    char mine[32] = "d e f";
    char *own_save;
    char *p = strtok(buf, " ");                      // RACE!: strtok's save pointer
    int r = rand();                                  // RACE!: the seed
    time_t now = 0;
    struct tm *tm = localtime(&now);                 // RACE!: the static struct tm
    const char *home = getenv("HOME");               // RACE!: main's setenv writes the environment
    const char *msg = strerror(r & 7);               // RACE!: strerror's buffer
    char *q = strtok_r(mine, " ", &shared_save);     // RACE!: both workers write shared_save
    char *s = strtok_r(mine, " ", &own_save);        // NO-RACE: this thread's own save pointer
    return (void *)(long)((p != 0) + (tm != 0) + (home != 0) + (msg != 0) + (q != 0) + (s != 0));
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    setenv("HOME", "/tmp", 1);                       // RACE!: the workers' getenv read it
    srand(1);                                        // RACE!: rand shares the seed
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
