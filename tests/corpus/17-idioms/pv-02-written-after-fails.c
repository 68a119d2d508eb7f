// The publisher's view needs the publisher not to write the data after raising the flag.
#include <assert.h>
#include <pthread.h>

int x;
int flag;

void *waiter(void *arg) {
    while (!flag) {
    }
    assert(x == 42); // FAILS! main may have stored 7 already
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    for (int i = 0; i <= 42; i++)
        x = i;
    flag = 1;
    x = 7;
    pthread_join(t, 0);
    return 0;
}
