// Two instances of the publishing thread: the flag may come from one while the other is still
// in its loop.
#include <assert.h>
#include <pthread.h>

int x;
int flag;

void *publisher(void *arg) {
    for (int i = 0; i <= 42; i++)
        x = i;
    flag = 1;
    return 0;
}

void *waiter(void *arg) {
    while (!flag) {
    }
    assert(x == 42); // FAILS! the second publisher restarts the loop
    return 0;
}

int main(void) {
    pthread_t p[2], w;
    pthread_create(&w, 0, waiter, 0);
    for (int k = 0; k < 2; k++)
        pthread_create(&p[k], 0, publisher, 0);
    for (int k = 0; k < 2; k++)
        pthread_join(p[k], 0);
    pthread_join(w, 0);
    return 0;
}
