// Threads start from the state at their create call: values main wrote before the create are
// known to the thread; values it writes after the create are interferences.
#include <assert.h>
#include <pthread.h>

int config = 0;
int ready = 0;
int later = 0;

static void *worker(void *arg) {
    (void)arg;
    assert(config == 10); // PROVED: written before the create, never changed
    assert(ready == 1);   // PROVED
    int l = later;
    assert(l >= 0 && l <= 4); // PROVED: 0 at the create, or main's later store of 4
    return 0;
}

int main(void) {
    pthread_t t;
    config = 10;
    ready = 1;
    pthread_create(&t, 0, worker, 0);
    later = 4;
    pthread_join(t, 0);
    return 0;
}
