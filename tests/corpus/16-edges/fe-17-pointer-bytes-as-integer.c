// Pointer bytes copied into an integer (`memcpy`), read through a union member, or read as an
// integer in place, then cast back and written through.
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

static int x, y, z;
static int untouched;
static int *src_x = &x;
static int *src_z = &z;
static uintptr_t slot;

static union {
    int *p;
    uintptr_t bits;
} u;

static void *writer(void *arg) {
    memcpy(&slot, &src_x, sizeof slot);
    *(int *)slot = 4;
    *(int *)u.bits = 5;
    *(int *)*(uintptr_t *)&src_z = 6;
    return 0;
}

int main(void) {
    pthread_t t;
    u.p = &y;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(untouched == 0); // PROVED
    assert(x == 0 || y == 0 || z == 0); // FAILS! all three were written
    return 0;
}
