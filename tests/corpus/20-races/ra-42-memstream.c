// A library function that keeps pointers and writes through them later: the stream of
// `open_memstream(&buf, &size)` writes `buf` and `size` at every later flush of it (`fflush`,
// `fclose`, output that fills its buffer), in whichever thread flushes (issue 35, class 3).
// A read of `size` in main while the worker flushes is a race; after the join it is not.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(1000) before main's first read): no data
// race: glibc writes `size` in `_IO_mem_sync`, which TSan does not instrument. helgrind
// (valgrind 3.19): a data race between main's read of `size` (line 32) and the worker's
// `fflush` (line 21, `_IO_mem_sync`); none on line 35.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *buf;
static size_t size;
static FILE *out;

static void *worker(void *arg) {
    (void)arg;
    fprintf(out, "hello %d\n", 42); // RACE!: may flush the stream too
    fflush(out); // RACE!: writes size and buf while main reads size
    return 0;
}

int main(void) {
    pthread_t t;
    out = open_memstream(&buf, &size); // NO-RACE: before the create
    if (!out)
        return 1;
    pthread_create(&t, 0, worker, 0);
    usleep(1000);
    size_t early = size; // RACE!: the worker's fflush writes size
    pthread_join(t, 0);
    fclose(out);
    size_t late = size; // NO-RACE: after the join, and main's own fclose
    free(buf);
    return (int)(early + late) & 1;
}
