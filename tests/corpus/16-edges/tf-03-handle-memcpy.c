// Handles copied with memcpy and by a struct assignment: each join waits for g.
#include <assert.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

int x = 0;
int y = 0;

struct worker {
    pthread_t id;
    int tag;
};

static void *f(void *arg) {
    (void)arg;
    usleep(200000);
    x = 1;
    y = 1;
    return 0;
}

static void *g(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    pthread_t a, b;
    struct worker s, t;
    pthread_create(&a, 0, f, 0);
    pthread_create(&b, 0, g, 0);
    memcpy(&a, &b, sizeof a);
    pthread_join(a, 0);
    assert(x == 1); // FAILS! memcpy put g's handle into a
    pthread_create(&s.id, 0, f, 0);
    pthread_create(&t.id, 0, g, 0);
    s = t;
    pthread_join(s.id, 0);
    assert(y == 1); // FAILS! the struct copy put g's handle into s.id
    return 0;
}
