// Figure 2 of the MPC paper (M0 of its repository): the crash needs i == 3, j >= 2 and a
// precise interleaving (x++ reads the 100 of t3 after t2 wrote 5; y reaches 2 after t2's 0).
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int x = 0;
int y = 0;
pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;

static void *t1(void *arg) {
    (void)arg;
    int i = __VERIFIER_nondet_int();
    x = 2;
    y = 5;
    if (i == 3) {
        x++;
        pthread_mutex_lock(&l);
        y--;
        pthread_mutex_unlock(&l);
    }
    return 0;
}

static void *t2(void *arg) {
    (void)arg;
    x = 5;
    y = 0;
    if (x == 101) {
        if (y == 2) {
            assert(0); // FAILS! i == 3, j >= 2 and the right interleaving
        }
    }
    return 0;
}

static void *t3(void *arg) {
    (void)arg;
    x = 100;
    int j = __VERIFIER_nondet_int();
    if (j > 4)
        j = 4;
    while (j-- > 0) {
        pthread_mutex_lock(&l);
        y++;
        pthread_mutex_unlock(&l);
    }
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    pthread_create(&c, 0, t3, 0);
    return 0;
}
