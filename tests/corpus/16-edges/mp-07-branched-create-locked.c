// Branched creation (Goblint 13-privatized/73): one path creates a thread and writes the
// global under the lock, the other writes it alone. The read under the lock after the merge
// sees both.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int g = 1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *idle(void *arg) {
    return 0;
}

int main(void) {
    pthread_t t;
    if (__VERIFIER_nondet_int()) {
        pthread_create(&t, 0, idle, 0);
        pthread_mutex_lock(&m);
        g = 5;
        pthread_mutex_unlock(&m);
    } else {
        g = 10;
    }
    pthread_mutex_lock(&m);
    assert(g <= 5);            // FAILS! with input 0, g is 10
    assert(g >= 1 && g <= 10); // PROVED
    pthread_mutex_unlock(&m);
    return 0;
}
