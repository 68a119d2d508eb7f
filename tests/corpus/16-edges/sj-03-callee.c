// longjmp from an inlined callee: the state at the longjmp (the callee's write of a local
// through a pointer, and of a global) reaches the second return of setjmp in the caller.
#include <assert.h>
#include <setjmp.h>

jmp_buf env;
static int g;

void fail(int *p) {
  *p = 7;
  g = 7;
  longjmp(env, 1);
}

int main(void) {
  int x = 0;
  if (!setjmp(env))
    fail(&x);
  assert(g <= 7); // PROVED
  assert(x == 0);           // FAILS! fail wrote 7 before the jump
  return 0;
}
