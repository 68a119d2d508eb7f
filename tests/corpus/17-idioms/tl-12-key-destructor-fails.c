// Issue 17, idiom 6: the destructor given to `pthread_key_create` runs when a thread with a
// non-NULL value exits; it is analysed as a function that may run at any time.
#include <assert.h>
#include <pthread.h>

static pthread_key_t key;
int destroyed;

static void forget(void *value) {
  (void)value;
  destroyed = 1;
}

static void *worker(void *arg) {
  (void)arg;
  pthread_setspecific(key, (void *)7);
  return 0;
}

int main(void) {
  pthread_t tid;
  pthread_key_create(&key, forget);
  pthread_create(&tid, 0, worker, 0);
  pthread_join(tid, 0);
  assert(destroyed == 0); // FAILS! the worker's exit ran the destructor
  return 0;
}
