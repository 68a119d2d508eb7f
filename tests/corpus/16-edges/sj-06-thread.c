// A thread that uses setjmp and longjmp internally: the assertion after the second return
// sees the thread's own write, and main sees it after the join.
#include <assert.h>
#include <pthread.h>
#include <setjmp.h>

static int shared;

void *worker(void *arg) {
  jmp_buf env;
  int step = 0;
  if (setjmp(env) == 0) {
    step = 1;
    shared = 1;
    longjmp(env, 1);
  }
  assert(step == 0 || step == 1); // PROVED
  assert(step == 0);              // FAILS! the jump comes after step = 1
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
