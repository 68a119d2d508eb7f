// One heap block per thread (issue 35, class 8): main allocates a block in each iteration of
// its create loop and hands it to the thread it creates there, so the block of iteration i is
// reached by thread i alone; two workers' accesses of their own blocks do not race, and main's
// reads after the joins are ordered. The racy neighbours (where the rule must not fire): the
// total every block points to; main writing a worker's block after the create without
// waiting; one block made before the loop and handed to every `sharer`; a block also put in a
// global array that a `watcher` thread reads (the rule does not apply to it).
// ThreadSanitizer (gcc 12 -fsanitize=thread, usleep(1000) after each create): a data race on
// `count` (two workers), on `seen` (main's write against its worker's read), on the common
// block's `result` (two sharers) and on `registry` (main's writes against the watcher's
// reads); none on `id` or the workers' own `result`.
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct total {
    int count;
};

struct job {
    int id;
    int result;
    int seen;
    struct total *all;
};

static struct job *registry[4];

static void *worker(void *arg) {
    struct job *j = arg;
    j->result = j->id * 2; // NO-RACE: the block is this worker's own
    int s = j->seen;       // RACE!: main writes it after the create
    j->all->count++;       // RACE!: every worker has the same total
    return (void *)(long)s;
}

static void *sharer(void *arg) {
    struct job *j = arg;
    j->result++; // RACE!: every sharer has the same block
    return 0;
}

static void *listed(void *arg) {
    struct job *j = arg;
    j->result = 1; // MAY-RACE: only this thread touches the block (a false alarm: it is also in
                   // the global `registry`, so the ownership rule does not apply)
    return 0;
}

static void *watcher(void *arg) {
    (void)arg;
    int sum = 0;
    usleep(2500);
    for (int i = 0; i < 4; i++)
        sum += registry[i] != 0; // RACE!: main fills the registry meanwhile
    return (void *)(long)sum;
}

int main(void) {
    pthread_t t[4], s[4], l[4], w;
    struct job *jobs[4];
    struct total *all = calloc(1, sizeof *all);
    for (int i = 0; i < 4; i++) {
        struct job *j = malloc(sizeof *j);
        j->id = i;     // NO-RACE: before its worker is created
        j->result = 0; // NO-RACE: before its worker is created
        j->seen = 0;   // NO-RACE: before its worker is created
        j->all = all;  // NO-RACE: before its worker is created
        jobs[i] = j;
        pthread_create(&t[i], 0, worker, j);
        usleep(1000);
        j->seen = 1; // RACE!: the worker may be reading it
    }
    struct job *common = calloc(1, sizeof *common);
    for (int i = 0; i < 4; i++)
        pthread_create(&s[i], 0, sharer, common);
    pthread_create(&w, 0, watcher, 0);
    for (int i = 0; i < 4; i++) {
        struct job *j = calloc(1, sizeof *j);
        registry[i] = j; // RACE!: the watcher reads the registry
        pthread_create(&l[i], 0, listed, j);
        usleep(1000);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], 0);
        pthread_join(s[i], 0);
        pthread_join(l[i], 0);
    }
    pthread_join(w, 0);
    int sum = 0;
    for (int i = 0; i < 4; i++)
        sum += jobs[i]->result; // NO-RACE: after the joins
    return sum + all->count + common->result; // NO-RACE: every thread was joined
}
