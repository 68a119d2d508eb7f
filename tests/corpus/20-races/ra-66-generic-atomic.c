// libatomic's generic atomics (issue 35, class 2): an `_Atomic` struct too large to be lock free
// is loaded and stored through `__atomic_load` and `__atomic_store` (clang and gcc call
// libatomic), which are atomic with respect to each other; a plain `memcpy` into the same object
// is not, so it races with both.
// ThreadSanitizer (gcc 12 -fsanitize=thread -latomic, which sees libatomic's copies under its
// lock): a data race between `clobber`'s memcpy and `writer`'s store; none between `writer` and
// `reader`.
#include <pthread.h>
#include <string.h>

struct big {
    int v[8];
};

static _Atomic struct big box;
static struct big plain_box;

static void *writer(void *arg) {
    struct big b = {{1, 2, 3, 4, 5, 6, 7, 8}};
    (void)arg;
    box = b; // RACE!: with `clobber`'s plain memcpy (atomic beside `reader`'s atomic load)
    return 0;
}

static void *reader(void *arg) {
    struct big b = box; // NO-RACE: atomic, beside `writer`'s atomic store
    (void)arg;
    return (void *)(long)b.v[0];
}

static void *clobber(void *arg) {
    (void)arg;
    memcpy((void *)&plain_box, (const void *)&box, sizeof plain_box); // RACE!: plain read of the atomic object
    return 0;
}

int main(void) {
    pthread_t w, r, c;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_create(&c, 0, clobber, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    pthread_join(c, 0);
    return 0;
}
