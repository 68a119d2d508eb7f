// Issue 17, idiom 6: code the analysis does not see (`getenv` here, a library function it does
// not know) may name a thread-local variable of external linkage and hand its address to
// another thread; then every thread's stores count. A `static` one stays private.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

__thread int x;
static __thread int y;

static void *worker(void *p) {
  (void)p;
  x = 2;
  y = 2;
  getenv("HOME");
  return 0;
}

int main(void) {
  pthread_t t;
  x = 1;
  y = 1;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(y == 1); // PROVED
  assert(x == 1); // MAY-FAIL: true, but unknown code might have written main's copy
  assert(x == 2); // FAILS! main's copy holds 1
  return 0;
}
