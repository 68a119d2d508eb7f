// A join loop waits for every worker, but each worker ends in a call through a pointer to
// pthread_exit before its store: no instance stored x.
#include <assert.h>
#include <pthread.h>

#define N 3

static int x = 0;
static int y = 0;
static void (*quit)(void *) = pthread_exit;

static void *worker(void *arg) {
    (void)arg;
    y = 1;
    quit(0);
    x = 1;
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    assert(y == 1); // PROVED(constraints): every worker stored y before it could end
    assert(x == 1); // FAILS! every worker ended in quit(0)
    return 0;
}
