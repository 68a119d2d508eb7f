// A thread creates another thread; the grandchild starts from the child's state at the create.
#include <assert.h>
#include <pthread.h>

int level = 0;

static void *grandchild(void *arg) {
    (void)arg;
    int l = level;
    assert(l >= 1 && l <= 2); // PROVED: 2 at its create call, or the child's earlier store 1
    return 0;
}

static void *child(void *arg) {
    (void)arg;
    pthread_t g;
    level = 1;
    level = 2;
    pthread_create(&g, 0, grandchild, 0);
    pthread_join(g, 0);
    return 0;
}

int main(void) {
    pthread_t c;
    pthread_create(&c, 0, child, 0);
    pthread_join(c, 0);
    return 0;
}
