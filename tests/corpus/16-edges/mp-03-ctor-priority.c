// Constructors run by ascending priority, the default (no number) last, and a function the
// source places in `.init_array` itself runs too; all before `main`.
#include <assert.h>
#include <pthread.h>

int order, g;
pthread_t h;

static void *writer(void *arg) {
    g = 7;
    return 0;
}

__attribute__((constructor)) static void late(void) {
    order = order * 10 + 2;
}

__attribute__((constructor(101))) static void early(void) {
    order = order * 10 + 1;
}

static void spawn(void) {
    pthread_create(&h, 0, writer, 0);
}
static void (*spawn_at_start)(void) __attribute__((section(".init_array"), used)) = spawn;

int main(void) {
    assert(order == 12); // PROVED
    pthread_join(h, 0);
    assert(g == 0);      // FAILS! `spawn` ran before main and its thread set g to 7
    return 0;
}
