// The failure needs a specific input (a * 3 + 7 == 1000, so a == 331, which no candidate value
// of watts confirm is) and the setter's write seen first: symbolic inputs find it.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int ready = 0;

static void *setter(void *arg) {
    (void)arg;
    ready = 1;
    return 0;
}

static void *checker(void *arg) {
    (void)arg;
    int a = __VERIFIER_nondet_int();
    if (ready == 1) {
        assert(a * 3 + 7 != 1000); // FAILS! a == 331 after the setter's write
    }
    return 0;
}

int main(void) {
    pthread_t s, c;
    pthread_create(&s, 0, setter, 0);
    pthread_create(&c, 0, checker, 0);
    pthread_join(s, 0);
    pthread_join(c, 0);
    return 0;
}
