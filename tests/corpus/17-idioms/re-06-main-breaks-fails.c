// Idiom 5's failing side: main breaks the relation before creating the thread; its view,
// published at the create, is what the thread finds at its lock.
#include <assert.h>
#include <pthread.h>
int used = 0, avail = 10;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *checker(void *a) {
    pthread_mutex_lock(&m);
    assert(used + avail == 10); // FAILS! main set avail to 9 first
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    avail = 9;   /* before any thread: main's own view, published at the create */
    pthread_create(&t, 0, checker, 0);
    pthread_join(t, 0);
    return 0;
}
