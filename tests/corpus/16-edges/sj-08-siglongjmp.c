// sigsetjmp and siglongjmp behave as setjmp and longjmp.
#include <assert.h>
#include <setjmp.h>

sigjmp_buf env;

void out(int *p) {
  *p += 1;
  siglongjmp(env, 1);
}

int main(void) {
  int tries = 0;
  if (sigsetjmp(env, 1) == 0)
    out(&tries);
  assert(tries == 0); // FAILS! out incremented it before the jump
  return 0;
}
