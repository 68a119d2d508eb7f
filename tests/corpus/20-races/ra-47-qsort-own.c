// `qsort` on a thread's own array (issue 35, class 8): each worker allocates and sorts its own
// array, so `qsort`'s reads and writes of it and the comparator's reads run in that worker
// alone (the comparator runs inside the call, in the calling thread). The racy neighbour: every
// worker sorts the one global array.
// ThreadSanitizer (gcc 12 -fsanitize=thread): a data race on `common` (two workers' sorts);
// none on the workers' own arrays (`compare` reads only those).
#include <pthread.h>
#include <stdlib.h>

static int common[16];

static int compare(const void *a, const void *b) {
    int x = *(const int *)a; // NO-RACE: reads what the sort of this thread's array passes
    int y = *(const int *)b; // NO-RACE: reads what the sort of this thread's array passes
    return (x > y) - (x < y);
}

static int compare_common(const void *a, const void *b) {
    int x = *(const int *)a; // RACE!: another worker's sort may be writing the element
    return x - *(const int *)b; // RACE!: the same
}

static void *worker(void *arg) {
    int seed = (int)(long)arg;
    int *mine = malloc(16 * sizeof *mine);
    int local[16];
    for (int i = 0; i < 16; i++) {
        mine[i] = (seed * 7 + i * 13) % 16; // NO-RACE: this worker's own block
        local[i] = mine[i];                 // NO-RACE: this worker's own array
    }
    qsort(mine, 16, sizeof *mine, compare);   // NO-RACE: sorts this worker's own block
    qsort(local, 16, sizeof *local, compare); // NO-RACE: sorts this worker's own array
    qsort(common, 16, sizeof *common, compare_common); // RACE!: every worker sorts the global array
    int r = mine[0] + local[15];
    free(mine);
    return (void *)(long)r;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 16; i++)
        common[i] = 16 - i;
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return common[0];
}
