// A thread created twice runs its allocation twice: two blocks.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *slot[2];

void *w(void *arg) {
    long i = (long)arg;
    int *p = malloc(sizeof *p);
    if (p)
        *p = (int)i;
    slot[i] = p;
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], 0, w, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    if (slot[0] && slot[1]) {
        *slot[1] = 9;
        assert(*slot[0] == 9); // FAILS!: the other thread's block
    }
    return 0;
}
