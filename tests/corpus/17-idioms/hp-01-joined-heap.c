// Idiom 7: a thread created after another was joined sees its heap writes, including the bytes
// strcpy copies into a malloc'd buffer (SV-COMP's bigshot, without the null test).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

char *v;

void *alloc(void *arg) {
    v = malloc(8);
    return 0;
}

void *fill(void *arg) {
    strcpy(v, "Bigshot");
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, alloc, 0);
    pthread_join(t1, 0);
    pthread_create(&t2, 0, fill, 0);
    pthread_join(t2, 0);
    assert(v[0] == 'B'); // PROVED(constraints): alloc runs once, so its block takes strong updates
    assert(v[7] == 0); // PROVED(constraints): the terminating zero
    assert(v[1] == 'x'); // FAILS!
    return 0;
}
