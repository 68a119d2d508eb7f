// Issue 16: the one assertion runs only in a thread whose entry comes from an ops table: the
// check that skips the flow-sensitive work when no assertion may run must follow it.
#include <assert.h>
#include <pthread.h>

struct ops {
  void *(*run)(void *);
};

int x;

static void *bad(void *arg) {
  int v = x;
  assert(v == 0); // FAILS!
  return arg;
}

static struct ops table = {bad};

int main(void) {
  pthread_t t;
  x = 1;
  pthread_create(&t, 0, table.run, 0);
  pthread_join(t, 0);
  return 0;
}
