// Issue 17: a local struct with an initialiser (clang copies it from a constant) holds the
// initialiser's values: fields given, fields left zero, pointers to globals, nested structs,
// and across padding. A thread given the struct reads them.
#include <assert.h>
#include <pthread.h>

static int limit = 10;

struct inner {
  short lo;
  short hi;
};

struct config {
  char mode;   // 3 bytes of padding follow
  int count;
  int *cap;    // points to `limit`
  struct inner range;
  long spare;  // not given: zero
};

static void *reader(void *arg) {
  struct config *c = arg;
  assert(c->mode == 'w'); // PROVED
  assert(c->count == 5); // PROVED
  assert(*c->cap == 10); // PROVED
  assert(c->range.lo == -2 && c->range.hi == 7); // PROVED
  assert(c->spare == 0); // PROVED
  return 0;
}

int main(void) {
  pthread_t t;
  struct config c = {'w', 5, &limit, {-2, 7}};
  pthread_create(&t, 0, reader, &c);
  pthread_join(t, 0);
  struct inner r = {1, 2};
  assert(r.lo + r.hi == 3); // PROVED
  assert(c.count == 4); // FAILS! the initialiser gave 5
  return 0;
}
