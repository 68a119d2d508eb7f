// Ten thousand workers take a lock for their update; the last one also reads `y` without it,
// which `main` writes after creating them all. Only those two accesses race, and `confirm`
// finds them at once whatever the number of the other threads.
#include <pthread.h>

#define N 10000

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int x, y;

static void *worker(void *arg) {
    long id = (long)arg;
    pthread_mutex_lock(&m);
    x++; // NO-RACE: under the lock
    pthread_mutex_unlock(&m);
    if (id == N - 1)
        return (void *)(long)y; // RACE!: main writes it
    return 0;
}

int main(void) {
    static pthread_t t[N];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    y = 1; // RACE!
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    pthread_mutex_lock(&m);
    int all = x; // NO-RACE: every worker is joined, and the lock is held
    pthread_mutex_unlock(&m);
    return all == N ? 0 : 1;
}
