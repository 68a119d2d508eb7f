// Two readers hold a read lock at once; the interpreter takes read locks exclusively, which
// would hide that, so the exploration gives up instead of proving.
//PROOF: gap read lock
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int inside;

static void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw);
    inside = inside + 1;
    usleep(1000); // widens the window, so that plain runs fail too
    int now = inside;
    inside = now - 1;
    pthread_rwlock_unlock(&rw);
    assert(now == 1); // FAILS! both readers inside at once
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, reader, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
