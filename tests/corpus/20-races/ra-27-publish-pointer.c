// Memory first reached through a pointer published later (issue 35, class 6): `main` creates the
// worker, writes `slot`, then publishes its address in `box`; the worker touches `slot` only
// through the pointer it reads from `box`. What `main` writes before the release store is
// ordered before the worker's access (it read the stored address with an acquire load); what
// `main` writes after the store is not. The analysis orders only wait loops by their flags, so
// the write before the store is reported too (accepted imprecision: a release store read by an
// acquire load outside a wait loop orders nothing here, and the hand-over rule, which orders
// such a store and load, takes heap blocks only: ra-28 is this program with a heap block).
// clang moves the atomic pointer as a 64-bit integer, which the points-to analysis follows
// like the pointer it moves, so the worker's access is one of `slot`.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(1000) in the worker before its load): a data
// race between main's second write of `slot` and the worker's increment; none on `box`.
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

int slot;
int *_Atomic box;

static void *worker(void *arg) {
    (void)arg;
    usleep(1000);
    int *p = atomic_load_explicit(&box, memory_order_acquire); // NO-RACE: atomic
    if (p)
        (*p)++; // RACE!: main writes `slot` again after publishing it
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    slot = 1; // MAY-RACE: before the release store, so ordered before the worker's access
    atomic_store_explicit(&box, &slot, memory_order_release); // NO-RACE: atomic
    slot = 2; // RACE!: after the address escaped
    pthread_join(t, 0);
    return slot; // NO-RACE: after the join
}
