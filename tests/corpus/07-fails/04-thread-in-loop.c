// Instances of one thread function, created in a loop, overwrite each other's stores.
#include <assert.h>
#include <pthread.h>

int slot = -1;
int hits = 0;
static int ids[4] = {0, 1, 2, 3}; // never written: its summary is [0, 3]

static void *worker(void *arg) {
    int id = *(int *)arg;
    slot = id;
    int s = slot;
    assert(s == id); // FAILS! another instance may store between the store and the load
    hits = 1;
    return 0;
}

int main(void) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        pthread_create(&t[i], 0, worker, &ids[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    assert(slot == 3); // FAILS! any instance may store last
    assert(slot >= -1 && slot <= 3); // PROVED
    assert(hits == 1); // PROVED(constraints): every instance was joined, after its store
    return 0;
}
