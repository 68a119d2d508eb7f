// C11 `<threads.h>` threads are modelled as pthreads are (issue 35, class 7): `thrd_create`
// and `thrd_join` order accesses as `pthread_create` and `pthread_join` do (here a create loop
// and a join loop), `mtx_lock` and `mtx_unlock` protect what they enclose, and `thrd_join`
// writes the thread's `int` result into main's local.
// ThreadSanitizer (gcc 12 -fsanitize=thread, glibc 2.36, link with -pthread): data races on
// `unlocked` (the two workers) and on `during` (the workers against main, and each other);
// none on `counter`, `before`, `res` or the reads after the joins.
#include <threads.h>

int counter, before, during, unlocked;
mtx_t m;

static int worker(void *arg) {
    int x = before; // NO-RACE: written before the creates
    mtx_lock(&m);
    counter += x; // NO-RACE: under `m`
    mtx_unlock(&m);
    unlocked++; // RACE!: the other worker, no lock
    during = (int)(long)arg; // RACE!: main and the other worker write it meanwhile
    return x + 1;
}

int main(void) {
    thrd_t t[2];
    int res = 0, sum = 0;
    before = 1; // NO-RACE
    if (mtx_init(&m, mtx_plain) != thrd_success)
        return 1;
    for (int i = 0; i < 2; i++)
        thrd_create(&t[i], worker, (void *)(long)i);
    during = 5; // RACE!
    for (int i = 0; i < 2; i++) {
        thrd_join(t[i], &res);
        sum += res; // NO-RACE: main's own local, written by the join
    }
    mtx_destroy(&m);
    return counter + unlocked + during + sum; // NO-RACE: after every join
}
