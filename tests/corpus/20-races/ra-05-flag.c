// A plain flag publishes nothing (C11 5.1.2.4; issue 35, class 2): the reader waits until the
// flag is set, so under sequential consistency it reads the data only after the writer wrote
// it, but the flag is a plain int: its own accesses race, and they order no other access, so
// `data` races too (ra-06 and ra-22 have the atomic neighbours); `late` is written after the
// flag, so it races under any model.
// ThreadSanitizer (gcc 12 -fsanitize=thread): data races on `flag`, on `data` and on `late`.
#include <pthread.h>

int data, late;
int flag;

static void *writer(void *arg) {
    (void)arg;
    data = 42; // RACE!: a plain flag publishes nothing
    flag = 1; // RACE!: the flag itself is not atomic
    late = 1; // RACE!: written after the flag
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    while (!flag) { // RACE!
    }
    int d = data; // RACE!
    int l = late; // RACE!
    return (void *)(long)(d + l);
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
