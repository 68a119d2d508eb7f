// Threads created inside a critical section (issue 35, class 7; Goblint's "descendant
// lockset"): main locks `mutex`, creates `child` and writes `before_unlock` before it unlocks;
// `child` takes the mutex first, so all it does after that comes after main's unlock, and so
// does `grandchild`, which `child` creates while it holds the mutex. The racy neighbours:
// main's write after its unlock (`after_unlock`); `early`, created before main locks; `maybe`,
// which takes the mutex only when its argument says so.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on `after_unlock` between main and
// `child`, on `early_data` between main and `early`, and on `maybe_data` between main and
// `maybe`; none on `before_unlock` or `handed`.
#include <pthread.h>

static int before_unlock, handed, after_unlock, early_data, maybe_data;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static void *grandchild(void *arg) {
    (void)arg;
    handed = 2; // NO-RACE: created while `child` held the mutex, after main released it
    return 0;
}

static void *child(void *arg) {
    pthread_t g;
    (void)arg;
    pthread_mutex_lock(&mutex);
    pthread_create(&g, 0, grandchild, 0);
    pthread_mutex_unlock(&mutex);
    before_unlock = 2; // NO-RACE: after `child` took the mutex, so after main's unlock
    after_unlock = 2;  // RACE!: main writes it after its unlock
    pthread_join(g, 0);
    return 0;
}

static void *early(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mutex);
    pthread_mutex_unlock(&mutex);
    early_data = 2; // RACE!: may take the mutex before main does
    return 0;
}

static void *maybe(void *arg) {
    if (arg) {
        pthread_mutex_lock(&mutex);
        pthread_mutex_unlock(&mutex);
    }
    maybe_data = 2; // RACE!: takes the mutex only on one path
    return 0;
}

int main(int argc, char **argv) {
    pthread_t c, e, m;
    (void)argv;
    pthread_create(&e, 0, early, 0);
    pthread_mutex_lock(&mutex);
    pthread_create(&c, 0, child, 0);
    pthread_create(&m, 0, maybe, (void *)(long)(argc > 5));
    before_unlock = 1; // NO-RACE: `child` cannot take the mutex before the unlock below
    handed = 1;        // NO-RACE: `grandchild` is created after `child` takes the mutex
    early_data = 1;    // RACE!: `early` started before the lock
    maybe_data = 1;    // RACE!: `maybe` may not wait for the mutex
    pthread_mutex_unlock(&mutex);
    after_unlock = 1; // RACE!: after the unlock, beside `child`
    pthread_join(c, 0);
    pthread_join(e, 0);
    pthread_join(m, 0);
    return 0;
}
