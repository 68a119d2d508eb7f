// A load in the same loop as a create call: a thread created in an earlier iteration may
// already have stored, so its store must stay a candidate (the create-order filter must not
// fire), while a thread created after the loop cannot be read inside it.
#include <assert.h>
#include <pthread.h>

int x = 0;
int y = 0;

static void *setter(void *arg) {
    (void)arg;
    x = 1;
    return 0;
}

static void *late(void *arg) {
    (void)arg;
    y = 9;
    return 0;
}

int main(void) {
    pthread_t t[3], u;
    for (int i = 0; i < 3; i++) {
        int v = x;
        assert(v == 0); // FAILS! the setter of an earlier iteration may have run
        int w = y;
        assert(w == 0); // PROVED(constraints): `late` is created after the loop
        pthread_create(&t[i], 0, setter, 0);
    }
    pthread_create(&u, 0, late, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    pthread_join(u, 0);
    return 0;
}
