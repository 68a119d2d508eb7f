// A function found by name with `dlsym` may be any function of external linkage, here one that
// starts a thread writing a static.
// gcc -O0 -pthread -rdynamic: the assertion fails on every run (the sleeps order the writes).
//PARAM: -- -D_GNU_SOURCE
#include <assert.h>
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

static int x;
static void *late(void *a) { (void)a; usleep(100000); x = 1; return 0; }
void starter(void) { pthread_t t; pthread_create(&t, 0, late, 0); pthread_detach(t); }

int main(void) {
    void (*fn)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "starter");
    fn();
    x = 0;
    usleep(300000);
    assert(x == 0); // FAILS! the thread `starter` created wrote 1
    return 0;
}
