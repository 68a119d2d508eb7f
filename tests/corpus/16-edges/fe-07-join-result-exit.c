// A thread passes the address of a heap object it keeps using to `pthread_exit` from a helper;
// `main` joins and reads through the result after the thread's last write, and writes to a
// static whose address the thread returned through `pthread_exit`.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static int flag;
static int quiet;

static void finish(int *p) {
    *p = 9;
    pthread_exit(p);
}

static void *worker(void *arg) {
    int *p = malloc(sizeof(int));
    if (!p)
        pthread_exit(&flag);
    finish(p);
    return 0;
}

int main(void) {
    pthread_t t;
    void *r;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, &r);
    assert(quiet == 0); // PROVED
    assert(*(int *)r != 9 || r == &flag); // FAILS! the result points to the 9 the thread wrote
    return 0;
}
