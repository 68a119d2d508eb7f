// Issue 16: a program whose only assertion lies in a function that nothing calls or creates
// needs no flow-sensitive work; the verdict is the same in every mode.
#include <assert.h>
#include <pthread.h>

int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  return arg;
}

void never_called(void) {
  assert(x == 12345); // UNREACHABLE
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
