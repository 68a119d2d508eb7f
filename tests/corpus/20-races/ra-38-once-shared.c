// A `pthread_once` routine must not be inlined as "runs here, once" when other code may run it
// (issue 35, class 7; the neighbour of ra-35): `start` is handed to `pthread_once` with one
// control object at two calls, main's and `other`'s, so the routine, and the thread it creates,
// may be `other`'s; `setup` is main's lone `pthread_once` routine but `again` calls it directly.
// ThreadSanitizer (gcc 12 -fsanitize=thread, `other` wins the race to `pthread_once`): a data
// race on `data` (main's write against `worker`'s read) and on `cfg` (`again`'s run of `setup`
// against main's); it reports one race per variable, and main's read of `cfg` races with
// `again`'s write as well (nothing orders them).
#include <pthread.h>
#include <unistd.h>

pthread_once_t once = PTHREAD_ONCE_INIT, once2 = PTHREAD_ONCE_INIT;
pthread_t worker_handle;
int data, cfg;

static void *worker(void *arg) {
    (void)arg;
    return (void *)(long)data; // RACE!: main's write before its `pthread_once`
}

static void start(void) {
    pthread_create(&worker_handle, 0, worker, 0);
}

static void *other(void *arg) {
    (void)arg;
    pthread_once(&once, start);
    return 0;
}

static void setup(void) {
    cfg = 1; // RACE!: `again` runs it too, beside main's read
}

static void *again(void *arg) {
    (void)arg;
    usleep(50000);
    setup();
    return 0;
}

int main(void) {
    pthread_t o, a;
    pthread_create(&o, 0, other, 0);
    pthread_create(&a, 0, again, 0);
    usleep(100000);
    data = 1; // RACE!: `worker` may be `other`'s
    pthread_once(&once, start);
    pthread_join(worker_handle, 0);
    pthread_once(&once2, setup);
    int c = cfg; // RACE!: `again` writes it
    pthread_join(o, 0);
    pthread_join(a, 0);
    return c;
}
