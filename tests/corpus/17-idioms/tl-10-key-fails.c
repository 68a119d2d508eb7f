// Issue 17, idiom 6: a new thread's value of a key is NULL, not its creator's.
#include <assert.h>
#include <pthread.h>

static pthread_key_t key;

static void *worker(void *arg) {
  (void)arg;
  long val = (long)pthread_getspecific(key);
  assert(val == 16); // FAILS! the worker's value starts as NULL
  return 0;
}

int main(void) {
  pthread_t tid;
  pthread_key_create(&key, 0);
  pthread_setspecific(key, (void *)16);
  pthread_create(&tid, 0, worker, 0);
  pthread_join(tid, 0);
  return 0;
}
