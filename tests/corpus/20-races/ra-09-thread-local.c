// Thread-local storage: each thread has its own copy, so no access races; the same variable
// without `__thread` is shared.
#include <pthread.h>

__thread int mine;
int shared;

static void *worker(void *arg) {
    (void)arg;
    mine = 1; // NO-RACE: this thread's copy
    shared = 1; // RACE!
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    mine = 2; // NO-RACE
    shared = 2; // RACE!
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return mine; // NO-RACE
}
