// Proof by exploration: Peterson's mutual exclusion, with a spin loop that re-reads the
// flags. Every execution is run (a spinning thread comes back to a state already explored),
// and neither critical section sees the other's write.
//PROOF: complete
#include <assert.h>
#include <pthread.h>

int flag0, flag1, turn, x;

static void *first(void *arg) {
    (void)arg;
    flag0 = 1;
    turn = 1;
    while (flag1 == 1 && turn == 1) {
    }
    x = 0;
    assert(x == 0); // MAY-FAIL: true; mutual exclusion by flags is beyond the analysis
    flag0 = 0;
    return 0;
}

static void *second(void *arg) {
    (void)arg;
    flag1 = 1;
    turn = 0;
    while (flag0 == 1 && turn == 0) {
    }
    x = 1;
    assert(x == 1); // MAY-FAIL: true; mutual exclusion by flags is beyond the analysis
    flag1 = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
