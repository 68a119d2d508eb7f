// The failing side of hp-09: once code the analysis cannot see runs (a library function it does
// not know, given the pointer's address), the global pointer may point anywhere exposed.
#include <assert.h>
#include <pthread.h>

extern void library_hook(int **where); // defined elsewhere: may store any pointer into *where

int a = 1;
int *gp = &a;

void *reader(void *arg) {
    assert(*gp == 1); // MAY-FAIL: library_hook may have redirected gp
    return 0;
}

int main(void) {
    pthread_t t;
    library_hook(&gp);
    pthread_create(&t, 0, reader, 0);
    pthread_join(t, 0);
    return 0;
}
