// longjmp called through a function pointer: the indirect call may jump.
#include <assert.h>
#include <setjmp.h>

jmp_buf env;

void (*volatile jump)(struct __jmp_buf_tag *, int) = longjmp;

int main(void) {
  int x = 0;
  if (setjmp(env) == 0) {
    x = 4;
    jump(env, 1);
  }
  assert(x == 0); // FAILS! x = 4 came before the jump
  return 0;
}
