// Many instances of one thread function: an unlocked update races with itself in another
// instance; under a mutex it does not.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int hits, safe_hits;

static void *worker(void *arg) {
    (void)arg;
    hits++; // RACE!: two workers at once
    pthread_mutex_lock(&m);
    safe_hits++; // NO-RACE
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    return hits + safe_hits; // NO-RACE: every worker was joined (a join loop)
}
