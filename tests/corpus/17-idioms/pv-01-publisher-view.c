// Idiom 2, the publisher's view: after the wait loop, the waiter reads what the thread that
// raised the flag held when it raised it, here the value of a loop's last iteration, which no
// single store holds (SV-COMP's condvar). The octagon relates x to i at the loop's exit.
#include <assert.h>
#include <pthread.h>

int x;
int x_set;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

void *waiter(void *arg) {
    pthread_mutex_lock(&m);
    while (!x_set)
        pthread_cond_wait(&cv, &m);
    assert(x == 42); // PROVED(flow-sensitive, octagon): main's x at its store of x_set
    assert(x == 41); // FAILS!
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    for (int i = 0; i <= 42; i++)
        x = i;
    x_set = 1;
    pthread_cond_broadcast(&cv);
    pthread_join(t, 0);
    return 0;
}
