// Thread creation and joins order accesses: what main writes before it creates a thread and
// reads after it joined it does not race with the thread; what it does in between does.
#include <pthread.h>

int before, after, during;

static void *worker(void *arg) {
    (void)arg;
    int x = before; // NO-RACE: written before the create
    after = x + 1; // NO-RACE: read after the join
    during = 1; // RACE!: main writes it while the thread runs
    return 0;
}

int main(void) {
    pthread_t t;
    before = 1; // NO-RACE
    pthread_create(&t, 0, worker, 0);
    during = 2; // RACE!
    pthread_join(t, 0);
    return after; // NO-RACE
}
