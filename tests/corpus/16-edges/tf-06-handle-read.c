// A library call that receives &a rewrites it: read() brings back g's handle from a pipe.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

int x = 0;

static void *f(void *arg) {
    (void)arg;
    usleep(200000);
    x = 1;
    return 0;
}

static void *g(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    pthread_t a, b;
    int fd[2];
    if (pipe(fd) != 0)
        return 0;
    pthread_create(&a, 0, f, 0);
    pthread_create(&b, 0, g, 0);
    if (write(fd[1], &b, sizeof b) != sizeof b)
        return 0;
    if (read(fd[0], &a, sizeof a) != sizeof a)
        return 0;
    pthread_join(a, 0);
    assert(x == 1); // FAILS! read() wrote g's handle into a
    return 0;
}
