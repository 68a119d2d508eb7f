// The neighbour of ra-25: the same struct of pointers, but the second worker is given a context
// whose `lock` field points to another mutex, so the two workers' increments of the one counter
// hold different locks and race; the field that names the counter is the same in both.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on `count`.
#include <pthread.h>

struct ctx {
    pthread_mutex_t *lock;
    int *counter;
};

pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
int count, other;

static void *worker(void *arg) {
    struct ctx *c = arg;
    pthread_mutex_lock(c->lock);
    (*c->counter)++; // RACE!: the two contexts name different mutexes
    pthread_mutex_unlock(c->lock);
    return 0;
}

int main(void) {
    struct ctx a = {&m1, &count}, b = {&m2, &count};
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, &a);
    pthread_create(&t2, 0, worker, &b);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return count + other; // NO-RACE: after the joins
}
