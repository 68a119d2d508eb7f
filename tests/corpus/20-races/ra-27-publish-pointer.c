// Memory first reached through a pointer published later (issue 35, class 6): `main` creates the
// worker, writes `slot`, then publishes its address in `box`; the worker touches `slot` only
// through the pointer it reads from `box`. What `main` writes before the release store is
// ordered before the worker's access (it read the stored address with an acquire load); what
// `main` writes after the store is not. The analysis orders only wait loops by their flags, so
// the write before the store is reported too (accepted imprecision: a release store read by an
// acquire load outside a wait loop orders nothing here). The address goes through the atomic
// store as an integer, so the worker's pointer is one the analysis lost: its accesses are in the
// report of lost addresses, which also lists the store to `box` (the lost pointer might name it).
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
    atomic_store_explicit(&box, &slot, memory_order_release); // MAY-RACE: see the header
    slot = 2; // RACE!: after the address escaped
    pthread_join(t, 0);
    return slot; // NO-RACE: after the join
}
