// A thread-local variable whose copy escapes (issue 35, class 9): `owner` publishes the address
// of its own copy of `mine` under a mutex, and `reader` writes that copy through the pointer
// it takes, while `owner` writes it again: a race on owner's copy. Every other access of `mine`
// names the running thread's own copy (C11 6.2.4p4: an object per thread), so two of them in
// different threads never race: `reader`'s own write, the two `counter` threads' updates.
// The analysis sees the published address as lost, so an access through it may touch the copy
// of any thread that lets its copy's address out: `owner`, and `lender`, which does it in a
// function it calls. The racy neighbour: `borrower` writes lender's copy through the pointer.
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(10000) before the second writes): a data
// race between owner's second write of `mine` and reader's write through the pointer, and one
// between lender's and borrower's; none on the other accesses of `mine`.
#include <pthread.h>
#include <unistd.h>

static __thread int mine;
static int *slot;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *owner(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    slot = &mine; // NO-RACE: under the mutex
    pthread_mutex_unlock(&m);
    usleep(10000);
    mine = 3; // RACE!: the reader writes this copy through the pointer
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    mine = 5; // NO-RACE: the reader's own copy
    int *p = 0;
    while (!p) {
        pthread_mutex_lock(&m);
        p = slot; // NO-RACE: under the mutex
        pthread_mutex_unlock(&m);
    }
    *p = 2; // RACE!: owner's copy, which owner writes again
    return 0;
}

static int *loan;

static void lend(void) {
    pthread_mutex_lock(&m);
    loan = &mine; // NO-RACE: under the mutex
    pthread_mutex_unlock(&m);
}

static void *lender(void *arg) {
    (void)arg;
    lend();
    usleep(10000);
    mine = 4; // RACE!: the borrower writes this copy through the loaned pointer
    return 0;
}

static void *borrower(void *arg) {
    (void)arg;
    int *q = 0;
    while (!q) {
        pthread_mutex_lock(&m);
        q = loan; // NO-RACE: under the mutex
        pthread_mutex_unlock(&m);
    }
    *q = 6; // RACE!: lender's copy
    return 0;
}

static void *counter(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++)
        mine++; // NO-RACE: each counter thread's own copy
    return 0;
}

int main(void) {
    pthread_t a, b, c1, c2, l, r;
    pthread_create(&a, 0, owner, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_create(&l, 0, lender, 0);
    pthread_create(&r, 0, borrower, 0);
    pthread_create(&c1, 0, counter, 0);
    pthread_create(&c2, 0, counter, 0);
    mine = 7; // NO-RACE: main's copy, which no pointer reaches
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c1, 0);
    pthread_join(c2, 0);
    pthread_join(l, 0);
    pthread_join(r, 0);
    return mine; // NO-RACE: main's copy
}
