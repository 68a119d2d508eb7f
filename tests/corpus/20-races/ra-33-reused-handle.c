// A `pthread_t` variable reused for a second create once the first thread was joined (issue
// 35, class 7): each join waits for the thread of the create just before it, so main's
// accesses after each join do not race. A handle overwritten by a second create before the
// first thread was joined names only the second thread: the first one is never waited for.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(100000) before main's read of `lost`): a
// data race on `lost` (the `late` thread's write against main's read) and a thread leak
// (`late`, never joined); none on `first`, `second` or `kept`.
#include <pthread.h>
#include <unistd.h>

int first, second, lost, kept;

static void *one(void *arg) {
    (void)arg;
    first++; // NO-RACE: main reads it after the join
    return 0;
}

static void *two(void *arg) {
    (void)arg;
    second++; // NO-RACE: main writes it before the create, reads it after the join
    return 0;
}

static void *late(void *arg) {
    lost += (int)(long)arg; // RACE!: the first `late` thread is never joined
    return 0;
}

static void *keep(void *arg) {
    (void)arg;
    kept = 1; // NO-RACE: joined
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, one, 0);
    pthread_join(t, 0);
    int a = first; // NO-RACE: after the join of `one`
    second = a; // NO-RACE: before the create of `two`
    pthread_create(&t, 0, two, 0);
    pthread_join(t, 0);
    a += second; // NO-RACE: after the join of `two`
    pthread_t u;
    pthread_create(&u, 0, late, (void *)1L);
    pthread_create(&u, 0, keep, 0);
    pthread_join(u, 0);
    usleep(100000);
    return a + kept + lost; // RACE!: `lost` (`kept` is joined)
}
