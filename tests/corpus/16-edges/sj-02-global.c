// A global written before longjmp: the second return of setjmp sees the write.
#include <assert.h>
#include <setjmp.h>

jmp_buf env;
static int g;

int main(void) {
  g = 0;
  int r = setjmp(env);
  if (r == 0) {
    g = 5;
    longjmp(env, 2);
  }
  assert(g <= 5); // PROVED
  assert(g == 0);           // FAILS! longjmp came after g = 5
  return 0;
}
