// pthread_exit called through a function pointer ends the thread before its store.
#include <assert.h>
#include <pthread.h>

int x = 0;
void (*quit)(void *) = pthread_exit;

static void *f(void *arg) {
    (void)arg;
    quit(0);
    x = 1;
    return 0;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, f, 0);
    pthread_join(a, 0);
    assert(x == 1); // FAILS! f ended inside quit(0)
    return 0;
}
