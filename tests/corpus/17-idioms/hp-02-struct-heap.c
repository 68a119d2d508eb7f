// Idiom 7: a struct set up on the heap by one thread (memset, field stores, memcpy of a
// constant) and read by a thread created after it was joined.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct conf {
    int port;
    int verbose;
    char tag[4];
};
struct conf *cfg;

void *setup(void *arg) {
    struct conf *c = malloc(sizeof *c);
    memset(c, 0, sizeof *c);
    c->port = 8080;
    memcpy(c->tag, "abc", 4);
    cfg = c;
    return 0;
}

void *use(void *arg) {
    if (cfg) {
        assert(cfg->port == 8080); // PROVED(constraints)
        assert(cfg->verbose == 0); // PROVED(constraints): the memset's zero
        assert(cfg->tag[1] == 'b'); // PROVED(constraints): the memcpy's byte
        assert(cfg->verbose == 1); // FAILS!
    }
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, setup, 0);
    pthread_join(t1, 0);
    pthread_create(&t2, 0, use, 0);
    pthread_join(t2, 0);
    return 0;
}
