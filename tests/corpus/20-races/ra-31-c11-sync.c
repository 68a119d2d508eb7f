// C11 `<threads.h>` synchronisation (issue 35, class 7): `mtx_trylock` holds its mutex only
// where it returned `thrd_success` (a failure returns `thrd_busy`, not `EBUSY`), so does
// `mtx_timedlock` (a failure returns `thrd_timedout`); `cnd_wait` releases the mutex while it
// waits and takes it again.
// gcc 12's ThreadSanitizer does not run C11 threads (glibc 2.36's `thrd_create` calls
// `pthread_create` inside libc, past TSan's interceptor: the program dies with SEGV), so the
// verdict is helgrind's (valgrind 3.19, gcc -g -O0, main holds `m` for 200 ms so that both of
// the worker's tries fail): data races on `fail_count` and `timed_fail` (main's, under `m`,
// against the worker's, after a failed try); none on `ok_count`, `timed_ok`, `data` or
// `ready`.
#include <threads.h>
#include <time.h>

mtx_t m;
cnd_t c;
int ok_count, fail_count, timed_ok, timed_fail, ready, data;

static int worker(void *arg) {
    int v = (int)(long)arg;
    if (mtx_trylock(&m) == thrd_success) {
        ok_count++; // NO-RACE: `m` is held here
        mtx_unlock(&m);
    } else {
        fail_count++; // RACE!: the try failed, nothing is held
    }
    // A time point long past: the lock is taken only if it is free.
    struct timespec ts = {0, 0};
    if (mtx_timedlock(&m, &ts) == thrd_success) {
        timed_ok++; // NO-RACE: `m` is held here
        mtx_unlock(&m);
    } else {
        timed_fail++; // RACE!: timed out, nothing is held
    }
    mtx_lock(&m);
    data = v; // NO-RACE: under `m`
    ready = 1; // NO-RACE: under `m`
    cnd_signal(&c);
    mtx_unlock(&m);
    return 0;
}

int main(void) {
    thrd_t t;
    struct timespec pause = {0, 200 * 1000 * 1000};
    if (mtx_init(&m, mtx_timed) != thrd_success || cnd_init(&c) != thrd_success)
        return 1;
    mtx_lock(&m);
    thrd_create(&t, worker, (void *)7L);
    thrd_sleep(&pause, 0);
    ok_count++; // NO-RACE: under `m`
    timed_ok++; // NO-RACE: under `m`
    fail_count++; // RACE!
    timed_fail++; // RACE!
    while (!ready) // NO-RACE: under `m`
        cnd_wait(&c, &m);
    int d = data; // NO-RACE: under `m`
    mtx_unlock(&m);
    thrd_join(t, 0);
    mtx_destroy(&m);
    cnd_destroy(&c);
    return d + ok_count + timed_ok; // NO-RACE: after the join
}
