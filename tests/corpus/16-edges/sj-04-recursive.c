// longjmp from a recursive callee, which is not inlined: the call may jump, so its state
// (after the havoc of what the callee may write) reaches the second return of setjmp.
#include <assert.h>
#include <setjmp.h>

jmp_buf env;
static int depth;

void down(int n) {
  depth = n;
  if (n == 0)
    longjmp(env, 1);
  down(n - 1);
}

int main(void) {
  depth = 10;
  if (setjmp(env) == 0)
    down(3);
  assert(depth == 10); // FAILS! depth is 0 after the jump
  return 0;
}
