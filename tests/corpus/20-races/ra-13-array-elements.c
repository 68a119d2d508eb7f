// Array elements at constant indices are separate memory; the same element is not.
#include <pthread.h>

int slot[4];

static void *first(void *arg) {
    (void)arg;
    slot[0] = 1; // NO-RACE: only this thread writes slot[0]
    slot[3] = 1; // RACE!: the other thread writes slot[3] too
    return 0;
}

static void *second(void *arg) {
    (void)arg;
    slot[1] = 2; // NO-RACE
    slot[3] = 2; // RACE!
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return slot[0] + slot[1] + slot[3]; // NO-RACE
}
