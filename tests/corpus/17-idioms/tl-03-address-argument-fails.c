// Issue 17, idiom 6: the address of a thread-local variable given to another thread as its
// argument lets that thread write this thread's copy. Such a variable is not taken as private
// to its thread.
#include <assert.h>
#include <pthread.h>

__thread int x;

static void *writer(void *p) {
  *(int *)p = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, &x);
  pthread_join(t, 0);
  assert(x == 0); // FAILS! the writer wrote main's copy through its argument
  return 0;
}
