// A non-static global pointer holds what the program stores there when no code the analysis
// cannot see runs (here: only its initialiser): the threads know its target.
#include <assert.h>
#include <pthread.h>

int a = 1;
int *gp = &a;

void *reader(void *arg) {
    assert(*gp == 1); // PROVED(constraints): gp points to a; the writer comes later
    return 0;
}

void *writer(void *arg) {
    *gp = 2;
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, reader, 0);
    pthread_join(t1, 0);
    pthread_create(&t2, 0, writer, 0);
    pthread_join(t2, 0);
    assert(a == 2); // PROVED(constraints): the writer wrote a through gp
    assert(*gp == 1); // FAILS! the writer stored 2 through it
    return 0;
}
