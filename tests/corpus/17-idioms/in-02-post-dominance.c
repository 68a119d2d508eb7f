// Idiom 1: the parent's last store before the create is known from post-dominance, not from
// dominance: the stores in the branches are overwritten on every path before the create.
#include <assert.h>
#include <pthread.h>

int g, c;
int h;

void *child(void *arg) {
    assert(g == 3); // PROVED(constraints)
    assert(h >= 1); // PROVED(constraints): 1 or 2, whichever branch ran
    return 0;
}

int main(void) {
    pthread_t t;
    if (c)
        g = 1;
    else
        g = 2;
    g = 3;
    h = 0;
    if (c)
        h = 1;
    else
        h = 2;
    pthread_create(&t, 0, child, 0);
    return 0;
}
