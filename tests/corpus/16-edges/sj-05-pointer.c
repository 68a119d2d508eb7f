// longjmp reached through a function pointer: every indirect call may jump.
#include <assert.h>
#include <setjmp.h>

jmp_buf env;
static int g;

void bail(void) {
  g = 1;
  longjmp(env, 1);
}

void (*volatile handler)(void) = bail;

int main(void) {
  g = 0;
  int x = 0;
  if (setjmp(env) == 0)
    handler();
  assert(g == 0); // FAILS! bail set g before the jump
  return 0;
}
