// Fields keep their objects apart (issue 35, class 9): a struct of pointers whose fields point
// to different objects (the lock and the counter it protects) is passed to the workers; a load
// of `c->lock` gives the mutex and a load of `c->counter` the counter, never each other's
// object, so the lock is recognised and the counter's accesses are protected. An array of such
// structs keeps the fields apart too (every element's `lock` field is one place). ra-26 is
// the racy neighbour.
// ThreadSanitizer (gcc 12 -fsanitize=thread): no data race.
#include <pthread.h>

struct ctx {
    pthread_mutex_t *lock;
    int *counter;
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;
struct ctx table[2];

static void *worker(void *arg) {
    struct ctx *c = arg;
    pthread_mutex_lock(c->lock);
    (*c->counter)++; // NO-RACE: under the mutex the `lock` field points to
    pthread_mutex_unlock(c->lock);
    pthread_mutex_lock(table[1].lock);
    (*table[1].counter)++; // NO-RACE: the same lock, through an array element
    pthread_mutex_unlock(table[1].lock);
    return 0;
}

int main(void) {
    struct ctx c = {&m, &count};
    for (int i = 0; i < 2; i++) {
        table[i].lock = &m;
        table[i].counter = &count;
    }
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, &c);
    pthread_create(&t2, 0, worker, &c);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return count; // NO-RACE: after the joins
}
