// Issue 17, idiom 6, the neighbour of tl-01: the same shape with an ordinary global, which the
// threads share. A worker sees main's value and the other worker's increments.
#include <assert.h>
#include <pthread.h>

int counter;

static void *worker(void *arg) {
  (void)arg;
  counter++;
  counter++;
  assert(counter == 2); // FAILS! main set the one copy to 7 before creating the threads
  return 0;
}

int main(void) {
  pthread_t a, b;
  counter = 7;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
