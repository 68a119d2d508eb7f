// Library calls access what their arguments point to: `memcpy` and `strcpy` into a shared
// buffer are writes; `printf` of a local or of a buffer nobody writes is not a race.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char shared_buf[32];
const char greeting[] = "hello";
char logbuf[32];

static void *worker(void *arg) {
    (void)arg;
    char local[8] = "abc";
    printf("%s\n", local); // NO-RACE: a local of this thread
    memcpy(shared_buf, "data", 5); // RACE!: main copies into it too
    printf("%s\n", greeting); // NO-RACE: constant
    return 0;
}

int main(void) {
    pthread_t t;
    strcpy(logbuf, "start"); // NO-RACE: before the create
    pthread_create(&t, 0, worker, 0);
    strcpy(shared_buf, "main"); // RACE!
    printf("%s\n", logbuf); // NO-RACE: nobody writes it after the create
    pthread_join(t, 0);
    return 0;
}
