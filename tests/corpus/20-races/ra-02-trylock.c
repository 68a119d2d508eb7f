// A trylock holds its mutex only where it returned 0: the branch where it failed races.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ok_count;
int fail_count;

static void *worker(void *arg) {
    (void)arg;
    if (pthread_mutex_trylock(&m) == 0) {
        ok_count++; // NO-RACE: `m` is held here
        pthread_mutex_unlock(&m);
    } else {
        fail_count++; // RACE!: the trylock failed, nothing is held
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    ok_count++; // NO-RACE
    fail_count++; // RACE!
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
