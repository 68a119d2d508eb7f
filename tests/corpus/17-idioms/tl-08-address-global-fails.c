// Issue 17, idiom 6: the address of a thread-local variable stored in a global reaches another
// thread, which writes this thread's copy through it.
#include <assert.h>
#include <pthread.h>

static __thread int y;
int *shared;

static void *writer(void *p) {
  (void)p;
  *shared = 2;
  return 0;
}

int main(void) {
  pthread_t t;
  shared = &y;
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  assert(y == 0); // FAILS! the writer wrote main's copy through the global pointer
  return 0;
}
