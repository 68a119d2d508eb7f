// Threads write array elements by index (an index the analysis does not know): the
// summarized array cell takes every value written, and no element is assumed unchanged.
#include <assert.h>
#include <pthread.h>

int a[4];

static void *writer(void *arg) {
    int i = *(int *)arg;
    a[i] = 1;
    return 0;
}

int main(void) {
    pthread_t t[4];
    int idx[4] = {0, 1, 2, 3};
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], 0, writer, &idx[i]);
    int v = a[2];
    assert(v == 0 || v == 1); // PROVED: every element holds 0 or 1
    assert(v == 0);           // FAILS! writer 2 may have run
    return 0;
}
