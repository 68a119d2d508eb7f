// The same publication with an atomic flag: no access races. `volatile` is not atomic.
#include <pthread.h>

int data;
int flag;
volatile int vflag;

static void *writer(void *arg) {
    (void)arg;
    data = 42; // NO-RACE
    __atomic_store_n(&flag, 1, __ATOMIC_SEQ_CST); // NO-RACE: atomic
    vflag = 1; // RACE!: volatile is not atomic
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    while (!__atomic_load_n(&flag, __ATOMIC_SEQ_CST)) { // NO-RACE
    }
    int v = vflag; // RACE!
    return (void *)(long)(data + v); // NO-RACE
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
