// A lock call that can fail protects nothing on its failure path (issue 35, class 4):
// `pthread_rwlock_rdlock` fails with EAGAIN when the maximum number of readers is reached
// (POSIX), so a reader that does not check its result may read while the writer writes; the
// reader that checks it is protected where it succeeded. A trylock whose result is ignored is
// the same (`pthread_mutex_trylock` fails with EBUSY while another thread holds the mutex).
// ThreadSanitizer (gcc 12 -fsanitize=thread; the sleeps make the trylock fail): a data race on
// `stats` (the ignored trylock); none on `table_size`: glibc's reader limit is 2^29 holders,
// which no run reaches, so the unchecked read lock's race is one POSIX allows but TSan cannot
// show.
#include <pthread.h>
#include <unistd.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int table_size, checked_size, stats;

static void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw);
    int n = table_size; // RACE!: the read lock may have failed
    pthread_rwlock_unlock(&rw);
    if (pthread_rwlock_rdlock(&rw) == 0) {
        n += checked_size; // NO-RACE: held on this branch
        pthread_rwlock_unlock(&rw);
    }
    usleep(5000);
    pthread_mutex_trylock(&m);
    stats++; // RACE!: the trylock may have failed
    pthread_mutex_unlock(&m);
    return (void *)(long)n;
}

static void *writer(void *arg) {
    (void)arg;
    pthread_rwlock_wrlock(&rw);
    table_size++;   // RACE!: against the unchecked reader
    checked_size++; // NO-RACE
    pthread_rwlock_unlock(&rw);
    pthread_mutex_lock(&m);
    usleep(20000);
    stats++; // RACE!
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t r, w;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_join(r, 0);
    pthread_join(w, 0);
    return table_size + stats; // NO-RACE
}
