// A thread whose entry function the program does not define runs code the analysis cannot
// see: a function found by `dlsym`, a library function. It stands for code that writes any
// memory whose address escaped (the argument among it), at any time.
// gcc -O0 -pthread -rdynamic: both assertions fail (the dlsym'd worker sets x to 1; time()
// stores the current time into y).
//PARAM: -- -D_GNU_SOURCE
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>

static int x;
static time_t y;
static int untouched;

void *worker(void *a) { *(int *)a = 1; return 0; }

int main(void) {
    void *(*fn)(void *) = (void *(*)(void *))dlsym(RTLD_DEFAULT, "worker");
    pthread_t t, u;
    untouched = 3;
    pthread_create(&t, 0, fn, &x);
    pthread_join(t, 0);
    if (__VERIFIER_nondet_int()) {
        assert(x == 0); // FAILS! the worker wrote 1
    }
    pthread_create(&u, 0, (void *(*)(void *))time, &y);
    pthread_join(u, 0);
    assert(y == 0); // FAILS! time() wrote the time
    assert(untouched == 3); // PROVED: its address never escaped
    return 0;
}
