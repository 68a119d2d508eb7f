// siglongjmp from a signal handler that raise() runs synchronously: the call of raise may jump.
#include <assert.h>
#include <setjmp.h>
#include <signal.h>

static sigjmp_buf env;

static void handler(int sig) { siglongjmp(env, 1); }

int main(void) {
  int x = 0;
  signal(SIGUSR1, handler);
  if (sigsetjmp(env, 1) == 0) {
    x = 3;
    raise(SIGUSR1);
    x = 0;
  }
  assert(x == 0); // FAILS! the handler jumped before x = 0
  return 0;
}
