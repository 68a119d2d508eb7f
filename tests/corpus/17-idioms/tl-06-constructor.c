// Issue 17, idiom 6: a constructor (run by `main`'s thread) writes its copy and creates a
// thread, whose copy still starts with the initialiser.
#include <assert.h>
#include <pthread.h>

static __thread int x = 3;
static pthread_t t;

static void *child(void *p) {
  (void)p;
  assert(x == 3); // PROVED
  x = 4;
  assert(x == 4); // PROVED
  return 0;
}

__attribute__((constructor)) static void init(void) {
  x = 9;
  pthread_create(&t, 0, child, 0);
}

int main(void) {
  pthread_join(t, 0);
  assert(x == 9); // PROVED: main's copy, written by the constructor
  assert(x == 4); // FAILS! the child wrote its own copy
  return 0;
}
