// A create call in a loop stands for many thread instances, which interfere with each other.
#include <assert.h>
#include <pthread.h>

int flag = 0;
int last = 0;
static int ids[3] = {0, 1, 2}; // never written: its summary is [0, 2]

static void *worker(void *arg) {
    int id = *(int *)arg;
    flag = 1;
    last = id;
    assert(flag == 1); // PROVED: every store to flag, in any instance, stores 1
    assert(last >= 0 && last <= 2); // PROVED: ids 0..2
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) {
        pthread_create(&t[i], 0, worker, &ids[i]);
    }
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(flag <= 1); // PROVED
    assert(last <= 2); // PROVED
    return 0;
}
