// Issue 17, idiom 3: the integer a thread's argument carries reaches the thread. The argument is
// a pointer made from an integer (`(void *)5L`, `(void *)i`); casting it back gives the integer,
// through inlined helpers and truncations too.
#include <assert.h>
#include <pthread.h>

static long as_long(void *p) { return (long)p; }

static void *five(void *arg) {
  long v = (long)arg;
  assert(v == 5); // PROVED
  assert(as_long(arg) == 5); // PROVED
  return 0;
}

static void *minus_one(void *arg) {
  long v = (long)arg;
  int low = (int)(long)arg;
  assert(v == -1); // PROVED
  assert(low == -1); // PROVED
  return 0;
}

static void *worker(void *arg) {
  long id = (long)arg;
  assert(id >= 0 && id < 4); // PROVED
  assert(id != 3); // FAILS! the fourth worker gets 3
  return 0;
}

int main(void) {
  pthread_t a, b, w[4];
  pthread_create(&a, 0, five, (void *)5L);
  pthread_create(&b, 0, minus_one, (void *)-1L);
  for (long i = 0; i < 4; i++)
    pthread_create(&w[i], 0, worker, (void *)i);
  pthread_join(a, 0);
  pthread_join(b, 0);
  for (int i = 0; i < 4; i++)
    pthread_join(w[i], 0);
  return 0;
}
