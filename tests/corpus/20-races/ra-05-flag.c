// A flag that publishes data: the reader waits until the flag is set, so it reads the data only
// after the writer wrote it. The flag itself is a plain int, so its own accesses race (C11:
// only an atomic flag is free of races); `late` is written after the flag, so it races.
#include <pthread.h>

int data, late;
int flag;

static void *writer(void *arg) {
    (void)arg;
    data = 42; // NO-RACE: published by the flag
    flag = 1; // RACE!: the flag itself is not atomic
    late = 1; // RACE!: written after the flag
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    while (!flag) { // RACE!
    }
    int d = data; // NO-RACE
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
