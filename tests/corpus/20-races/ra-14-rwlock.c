// Reader-writer locks: a read under the read lock and a write under the write lock exclude each
// other; a write under a read lock excludes nothing. The read lock is held only where its result
// says so (it may fail with EAGAIN: ra-24 has the unchecked neighbour).
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on `hits` only.
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int table_size;
int hits;

static void *reader(void *arg) {
    (void)arg;
    if (pthread_rwlock_rdlock(&rw) != 0)
        return 0;
    int n = table_size; // NO-RACE: the writer holds the write lock
    hits++; // RACE!: written by both readers under the read lock only
    pthread_rwlock_unlock(&rw);
    return (void *)(long)n;
}

static void *writer(void *arg) {
    (void)arg;
    pthread_rwlock_wrlock(&rw);
    table_size++; // NO-RACE
    pthread_rwlock_unlock(&rw);
    return 0;
}

int main(void) {
    pthread_t r1, r2, w;
    pthread_create(&r1, 0, reader, 0);
    pthread_create(&r2, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_join(r1, 0);
    pthread_join(r2, 0);
    pthread_join(w, 0);
    return hits; // NO-RACE
}
