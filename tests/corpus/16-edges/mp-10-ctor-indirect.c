// A constructor that creates its threads in a callee left un-inlined (recursion) or through
// a function pointer: the threads are found from the detached callee, and `main`, which
// creates no thread itself, has no single-threaded phase (analysis::protection).
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

extern int __VERIFIER_nondet_int(void);

int g, k;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_t h1, h2;

static void *writer_g(void *arg) {
    usleep(50000);
    pthread_mutex_lock(&m);
    g = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

static void *writer_k(void *arg) {
    usleep(50000);
    pthread_mutex_lock(&m);
    k = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

static void spawn_deep(int n) {
    if (n > 0)
        spawn_deep(n - 1);
    else
        pthread_create(&h1, 0, writer_g, 0);
}

static void spawn_k(void) {
    pthread_create(&h2, 0, writer_k, 0);
}

static void (*volatile spawner)(void);

__attribute__((constructor)) static void start(void) {
    spawn_deep(2);
    spawner = spawn_k;
    spawner();
}

int main(void) {
    g = 5; // no lock: the writers already run
    k = 5;
    pthread_join(h1, 0);
    pthread_join(h2, 0);
    pthread_mutex_lock(&m);
    if (__VERIFIER_nondet_int())
        assert(g == 5); // FAILS! writer_g overwrote it
    else
        assert(k == 5); // FAILS! writer_k overwrote it
    pthread_mutex_unlock(&m);
    return 0;
}
