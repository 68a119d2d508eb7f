// main writes a lock-protected global without the lock after setjmp, first before it creates
// the thread, then again after the longjmp, while the thread runs: the second write is not in
// main's single-threaded phase.
#include <assert.h>
#include <pthread.h>
#include <setjmp.h>
#include <unistd.h>

static int g;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static jmp_buf env;

static void *worker(void *arg) {
  pthread_mutex_lock(&m);
  g = 1;
  usleep(200000);
  assert(g == 1); // FAILS! main wrote 5 meanwhile
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t th;
  int r = setjmp(env);
  g = 5;
  if (r == 0) {
    pthread_create(&th, 0, worker, 0);
    usleep(50000);
    longjmp(env, 1);
  }
  pthread_join(th, 0);
  return 0;
}
