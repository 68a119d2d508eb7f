// __builtin_setjmp and __builtin_longjmp (llvm.eh.sjlj.*) are a resume point and a jump.
#include <assert.h>

void *buf[5];
static int g;

__attribute__((noinline)) void jump(void) {
  g = 3;
  __builtin_longjmp(buf, 1);
}

int main(void) {
  g = 0;
  if (__builtin_setjmp(buf) == 0)
    jump();
  assert(g == 0); // FAILS! jump set g before the jump
  return 0;
}
