// Addresses inside an integer table (`uintptr_t tbl[] = {(uintptr_t)&g, ...}`), nested in an
// array and offset by a field, are exposed; the cast back writes the field.
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

struct dev {
    int mode;
    int count;
};
static struct dev d;
static int other;
static const uintptr_t tbl[] = {0, (uintptr_t)&d.count};

static void *writer(void *arg) {
    *(int *)tbl[1] = 3;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    assert(other == 0);   // PROVED
    assert(d.count == 0); // FAILS! written through tbl[1]
    return 0;
}
