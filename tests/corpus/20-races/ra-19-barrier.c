// A barrier orders what each thread did before it before what the others do after it. The
// race check does not model barriers (README, "Data races"): it reports the pair, and
// --confirm finds no execution that reaches both accesses at once.
#include <pthread.h>
pthread_barrier_t b;
int data;
void *worker(void *arg) {
    (void)arg;
    data = 42; // MAY-RACE: ordered by the barrier, which the check does not model
    pthread_barrier_wait(&b);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_barrier_init(&b, 0, 2);
    pthread_create(&t, 0, worker, 0);
    pthread_barrier_wait(&b);
    int v = data; // MAY-RACE
    pthread_join(t, 0);
    return v == 42 ? 0 : 1;
}
