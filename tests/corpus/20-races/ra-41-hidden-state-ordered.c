// The neighbour of ra-40: calls of library functions that are not thread-safe (XSH 2.9.1) are
// race-free when something orders them: a lock both hold, or a join; and two calls that only
// read a piece of the library's state (`getenv` and `getenv`) do not race (issue 35, class 3).
// ThreadSanitizer (gcc 12 -fsanitize=thread): no data race (it sees `localtime`'s buffer, which
// the lock orders, and not the rest of the library's state); helgrind (valgrind 3.19): none.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    char buf[32] = "a b c";
    char *save;
    pthread_mutex_lock(&m);
    char *p = strtok(buf, " ");                      // NO-RACE: under m in every thread
    int r = rand();                                  // NO-RACE: under m in every thread
    time_t now = 0;
    struct tm *tm = localtime(&now);                 // NO-RACE: under m in every thread
    pthread_mutex_unlock(&m);
    const char *home = getenv("HOME");               // NO-RACE: every use of the environment reads it
    char *q = strtok_r(buf, " ", &save);             // NO-RACE: this thread's own save pointer
    return (void *)(long)((p != 0) + r + (tm != 0) + (home != 0) + (q != 0));
}

int main(void) {
    pthread_t t1, t2;
    setenv("HOME", "/tmp", 1);                       // NO-RACE: before the creates
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    const char *home = getenv("HOME");               // NO-RACE: only reads the environment
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    char buf[8] = "x y";
    char *p = strtok(buf, " ");                      // NO-RACE: after both joins
    srand(2);                                        // NO-RACE: after both joins
    return (home != 0) + (p != 0);
}
