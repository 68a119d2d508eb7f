// A setjmp that no longjmp targets, and assertions before setjmp: what was proved stays proved.
#include <assert.h>
#include <setjmp.h>

jmp_buf env;
static int g;

int main(void) {
  int x = 1;
  g = 2;
  assert(x == 1); // PROVED
  assert(g == 2); // PROVED
  if (setjmp(env) == 0)
    x = 2;
  assert(x >= 1); // PROVED
  assert(g == 2); // PROVED
  return 0;
}
