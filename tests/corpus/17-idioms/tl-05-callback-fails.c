// Issue 17, idiom 6: a function called through a pointer (analysed on its own) writes the copy
// of the thread that calls it; its stores count for every thread.
#include <assert.h>
#include <pthread.h>

static __thread int x;
static void bump(void) { x = 1; }
void (*volatile hook)(void) = bump;

static void *worker(void *p) {
  (void)p;
  hook();
  assert(x == 0); // FAILS! the callback wrote this thread's copy
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(x == 0); // MAY-FAIL: true (the callback ran in the worker), but any thread may run it
  return 0;
}
