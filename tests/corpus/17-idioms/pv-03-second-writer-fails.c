// The publisher's view needs the publisher to be the only writer of the data.
#include <assert.h>
#include <pthread.h>

int x;
int flag;

void *waiter(void *arg) {
    while (!flag) {
    }
    assert(x == 42); // FAILS! the other writer may store 5 after main's flag
    return 0;
}

void *other(void *arg) {
    x = 5;
    return 0;
}

int main(void) {
    pthread_t t, u;
    pthread_create(&t, 0, waiter, 0);
    pthread_create(&u, 0, other, 0);
    for (int i = 0; i <= 42; i++)
        x = i;
    flag = 1;
    pthread_join(t, 0);
    pthread_join(u, 0);
    return 0;
}
