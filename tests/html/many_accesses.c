// A race with fourteen accesses, more than the details of the HTML report write as HTML:
// the page's script adds the rest from the embedded document (tests/html.rs).
#include <pthread.h>
volatile int g; // volatile: every store stays an access of its own
static void *worker(void *arg) {
    (void)arg;
    g = 1;
    g = 2;
    g = 3;
    g = 4;
    g = 5;
    g = 6;
    g = 7;
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    g = 10;
    g = 11;
    g = 12;
    g = 13;
    g = 14;
    g = 15;
    g = 16;
    pthread_join(t, 0);
    return 0;
}
