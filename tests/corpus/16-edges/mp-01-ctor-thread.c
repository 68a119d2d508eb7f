// A constructor runs before `main`, in the thread that then runs `main`; a thread it creates
// runs while `main` does. Its stores must reach `main` (harness::startup: the constructors
// are the start of the analysed `main`).
#include <assert.h>
#include <pthread.h>

int g;
pthread_t h;

static void *writer(void *arg) {
    g = 1;
    return 0;
}

__attribute__((constructor)) static void start(void) {
    pthread_create(&h, 0, writer, 0);
}

int main(void) {
    pthread_join(h, 0);
    assert(g == 0 || g == 1); // PROVED
    assert(g == 0);           // FAILS! the writer has set g to 1
    return 0;
}
