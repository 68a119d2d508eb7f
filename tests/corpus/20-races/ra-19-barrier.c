// A barrier orders what each thread did before it before what the others do after it: its
// count, 2, is the number of threads that wait on it, each once (issue 36, barrier phases;
// ra-51 and ra-52 have the rule's neighbours).
#include <pthread.h>
pthread_barrier_t b;
int data;
void *worker(void *arg) {
    (void)arg;
    data = 42; // NO-RACE: before the phase
    pthread_barrier_wait(&b);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_barrier_init(&b, 0, 2);
    pthread_create(&t, 0, worker, 0);
    pthread_barrier_wait(&b);
    int v = data; // NO-RACE: after it
    pthread_join(t, 0);
    return v == 42 ? 0 : 1;
}
