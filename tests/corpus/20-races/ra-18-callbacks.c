// Functions handed to library code: qsort calls its comparator during the call, in the calling
// thread with the locks held there; atexit keeps its handler and runs it at exit, when a
// thread that was never joined may still run.
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int compares, polls, stop;

static int by_value(const void *a, const void *b) {
    compares++; // NO-RACE: qsort runs it in main, which holds `m`
    return *(const int *)a - *(const int *)b;
}

static void at_exit(void) {
    stop = 1; // RACE!: runs at exit while `poller` still reads `stop`
}

static void *poller(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&m);
        compares++; // NO-RACE: `m` held, as in the comparator
        pthread_mutex_unlock(&m);
        if (stop) // RACE!
            break;
        polls++;
        usleep(100);
    }
    return 0;
}

int main(void) {
    int v[4] = {3, 1, 2, 0};
    pthread_t t;
    atexit(at_exit);
    pthread_create(&t, 0, poller, 0);
    pthread_mutex_lock(&m);
    qsort(v, 4, sizeof v[0], by_value);
    pthread_mutex_unlock(&m);
    usleep(1000);
    return v[0];
}
