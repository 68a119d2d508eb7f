// A timed wait may time out: no proof, since the interpreter never times out.
//PROOF: gap timed wait
#include <assert.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

int main(void) {
    struct timespec at = {0, 0};
    pthread_mutex_lock(&m);
    if (!ready)
        pthread_cond_timedwait(&cv, &m, &at);
    pthread_mutex_unlock(&m);
    assert(ready); // FAILS! nobody sets it; the wait times out
    return 0;
}
