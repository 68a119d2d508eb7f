// Issue 17, idiom 6: threads created in a loop each have their own copy of a thread-local
// variable; the other instances' stores reach only a shared global.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>

static __thread long mine;
long all;

static void *worker(void *arg) {
  (void)arg;
  assert(mine == 0); // PROVED
  mine = 10;
  all = 10;
  usleep(1000);
  mine++;
  all++;
  usleep(1000);
  assert(mine == 11); // PROVED: no other instance writes this copy
  assert(all == 11); // FAILS! another instance may write 10 in between
  return 0;
}

int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(mine == 0); // PROVED: main's copy
  return 0;
}
