// Issue 17, idiom 3, the failing side: the value passed is the value the thread gets, not any
// other; a thread created twice with different values gets either; an address passed as the
// argument is no known integer.
#include <assert.h>
#include <pthread.h>

static void *check(void *arg) {
  long v = (long)arg;
  assert(v == 1 || v == 2); // PROVED
  assert(v == 1); // FAILS! the second thread gets 2
  return 0;
}

static void *seven(void *arg) {
  unsigned char low = (unsigned char)(long)arg;
  assert(low == 7); // FAILS! 263 truncated to 8 bits is 7, but this one gets 264
  return 0;
}

static int slot;

static void *address(void *arg) {
  long a = (long)arg;
  assert(a == 8); // FAILS! the address of `slot` as an integer is not known, and not 8
  return 0;
}

int main(void) {
  pthread_t a, b, c, d;
  pthread_create(&a, 0, check, (void *)1L);
  pthread_create(&b, 0, check, (void *)2L);
  pthread_create(&c, 0, seven, (void *)264L);
  // Before the joins: `check` with 2 always fails, and ends the process.
  pthread_create(&d, 0, address, &slot);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  pthread_join(d, 0);
  return 0;
}
