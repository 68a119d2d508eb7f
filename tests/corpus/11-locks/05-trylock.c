// pthread_mutex_trylock holds the mutex only when it returns 0: a load on its success branch is
// protected, one on its failure branch is not, and the mutual-exclusion rule must not fire
// there.
#include <assert.h>
#include <pthread.h>

static int c;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *writer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    c = 1;
    c = 2;
    pthread_mutex_unlock(&m);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    if (pthread_mutex_trylock(&m) != 0) {
        int v = c;
        assert(v != 1); // FAILS! trylock failed: m is not held
    } else {
        pthread_mutex_unlock(&m);
    }
    return 0;
}

static void *try_reader(void *arg) {
    (void)arg;
    if (pthread_mutex_trylock(&m) == 0) {
        int v = c;
        pthread_mutex_unlock(&m);
        assert(v != 1); // PROVED(constraints): the trylock succeeded, m is held
    }
    return 0;
}

static void *spin_reader(void *arg) {
    (void)arg;
    while (pthread_mutex_trylock(&m)) {
    }
    int w = c;
    pthread_mutex_unlock(&m);
    assert(w != 1); // PROVED(constraints): the loop exits once the trylock succeeded
    return 0;
}

static void *locked_reader(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int v = c;
    pthread_mutex_unlock(&m);
    assert(v != 1); // PROVED(constraints)
    return 0;
}

int main(void) {
    pthread_t t[5];
    pthread_create(&t[0], 0, writer, 0);
    pthread_create(&t[1], 0, reader, 0);
    pthread_create(&t[2], 0, locked_reader, 0);
    pthread_create(&t[3], 0, try_reader, 0);
    pthread_create(&t[4], 0, spin_reader, 0);
    return 0;
}
