// A join loop that counts down (issue 35, class 7): main creates N workers in a loop and joins
// them from the last to the first; after the loop every worker has ended, so main's read of
// `data` does not race. The racy neighbour: the second pool's join loop stops before index 0
// (`i > 0`), so the first of those workers may still run when main reads `left` (and those
// workers write it unordered).
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(10000) before main's last read): a data
// race on `left` between two workers of the second pool (it reports one race per location) and
// a thread leak (worker 0); none on `data`.
#include <pthread.h>
#include <unistd.h>

#define N 4

static int data, left;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mutex);
    data++; // NO-RACE: under the mutex, and main reads after joining all
    pthread_mutex_unlock(&mutex);
    return 0;
}

static void *late(void *arg) {
    (void)arg;
    left = 1; // RACE!: worker 0 of this pool is never joined (and the workers race with each other)
    return 0;
}

int main(void) {
    pthread_t ids[N], more[N];
    for (int i = 0; i < N; i++)
        pthread_create(&ids[i], 0, worker, 0);
    for (int i = N - 1; i >= 0; i--)
        pthread_join(ids[i], 0);
    int d = data; // NO-RACE: every worker is joined
    for (int i = 0; i < N; i++)
        pthread_create(&more[i], 0, late, 0);
    for (int i = N - 1; i > 0; i--)
        pthread_join(more[i], 0);
    usleep(10000);
    return d + left; // RACE!: the worker at index 0 may still run
}
