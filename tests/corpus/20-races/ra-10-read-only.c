// Data written only before the first thread exists and read afterwards never races; a write
// after the threads started does.
#include <pthread.h>

struct config {
    int port;
    int verbose;
} cfg;
int table[4];

static void *worker(void *arg) {
    (void)arg;
    int p = cfg.port; // NO-RACE: read-only after main set it up
    int v = cfg.verbose; // RACE!: main changes it while the workers run
    int t = table[2]; // NO-RACE
    return (void *)(long)(p + v + t);
}

int main(void) {
    pthread_t t[2];
    cfg.port = 80; // NO-RACE
    table[2] = 3; // NO-RACE
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, 0);
    cfg.verbose = 1; // RACE!
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    return 0;
}
