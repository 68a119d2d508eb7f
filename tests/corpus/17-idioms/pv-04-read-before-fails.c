// A load before the wait loop is not ordered after the flag's store: it reads any iteration.
#include <assert.h>
#include <pthread.h>

int x;
int flag;

void *waiter(void *arg) {
    int early = x;
    while (!flag) {
    }
    assert(early == 42); // FAILS! read before main finished its loop
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    for (int i = 0; i <= 42; i++)
        x = i;
    flag = 1;
    pthread_join(t, 0);
    return 0;
}
