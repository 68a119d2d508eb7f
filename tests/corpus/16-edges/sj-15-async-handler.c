// siglongjmp from a signal handler that the kernel runs between two instructions (an alarm):
// every point after the setjmp may jump, in the middle of a loop that never calls anything.
#include <assert.h>
#include <setjmp.h>
#include <signal.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile int g;

static void handler(int sig) { siglongjmp(env, 1); }

int main(void) {
  signal(SIGALRM, handler);
  if (sigsetjmp(env, 1) == 0) {
    alarm(1);
    g = 7;
    for (;;)
      g = 5;
  }
  assert(g != 5); // FAILS! the alarm interrupts the loop
  return 0;
}
