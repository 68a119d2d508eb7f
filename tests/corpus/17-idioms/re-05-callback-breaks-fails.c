// Idiom 5's failing side: a function called through a pointer (analysed on its own, from an
// unknown state) breaks the relation under the lock; what it publishes carries no relation.
#include <assert.h>
#include <pthread.h>
int used = 0, avail = 10;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void breaker(void) { pthread_mutex_lock(&m); avail--; pthread_mutex_unlock(&m); }
void (*cb)(void) = breaker;
void *checker(void *a) {
    pthread_mutex_lock(&m);
    assert(used + avail == 10); // FAILS! breaker took one from avail alone
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, checker, 0);
    cb();
    pthread_join(t, 0);
    return 0;
}
