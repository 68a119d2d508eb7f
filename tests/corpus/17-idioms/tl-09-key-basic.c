// Issue 17, idiom 6: thread-specific data. With one key (created once, in `main`), each
// thread's value of the key is its own, NULL until it sets it (SV-COMP divine/tls_basic).
#include <assert.h>
#include <pthread.h>

static void *worker(void *k) {
  pthread_key_t *key = k;
  long val = (long)pthread_getspecific(*key);
  assert(val == 0); // PROVED: NULL in a new thread, whatever main set
  int r = pthread_setspecific(*key, (void *)42);
  assert(r == 0); // PROVED
  val = (long)pthread_getspecific(*key);
  assert(val == 42); // PROVED
  return 0;
}

int main(void) {
  pthread_key_t key;
  int r = pthread_key_create(&key, 0);
  assert(r == 0); // PROVED
  pthread_t tid;
  assert((long)pthread_getspecific(key) == 0); // PROVED
  assert(pthread_getspecific(key) == 0); // TODO: a pointer compared with NULL is not decided
  pthread_setspecific(key, (void *)16);
  pthread_create(&tid, 0, worker, &key);
  long val = (long)pthread_getspecific(key);
  assert(val == 16); // PROVED: the worker's 42 is its own
  pthread_join(tid, 0);
  val = (long)pthread_getspecific(key);
  assert(val == 16); // PROVED
  assert(val == 42); // FAILS! main's value is 16
  return 0;
}
