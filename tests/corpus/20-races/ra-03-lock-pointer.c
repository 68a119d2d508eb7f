// Locks taken through pointers and wrappers: a pointer that can only name one mutex holds it;
// one that may name either of two holds none of them for sure.
#include <pthread.h>

struct dev {
    pthread_mutex_t lock;
    int count;
};
struct dev d = {PTHREAD_MUTEX_INITIALIZER, 0};
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int either; // under `a` or `b`, whichever `pick` names
int choose;

static void take(struct dev *p) { pthread_mutex_lock(&p->lock); }
static void drop(struct dev *p) { pthread_mutex_unlock(&p->lock); }

static void *worker(void *arg) {
    pthread_mutex_t *pick = arg;
    take(&d);
    d.count++; // NO-RACE: `d.lock` through a wrapper and a pointer
    drop(&d);
    pthread_mutex_lock(pick);
    either++; // RACE!: `pick` may be `a` or `b`
    pthread_mutex_unlock(pick);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, &a);
    pthread_create(&t2, 0, worker, &b);
    take(&d);
    d.count++; // NO-RACE
    drop(&d);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
