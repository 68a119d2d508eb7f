// setjmp/longjmp in one function: a local written between setjmp and longjmp keeps its new
// value after the second return of setjmp (clang and gcc -O0 keep locals in memory).
#include <assert.h>
#include <setjmp.h>

jmp_buf env;

int main(void) {
  int x = 0;
  int before = 3;
  assert(before == 3); // PROVED
  if (setjmp(env) == 0) {
    x = 1;
    longjmp(env, 1);
  }
  assert(before == 3); // PROVED
  assert(x <= 1);      // PROVED
  assert(x == 0);      // FAILS! the second return sees x == 1
  return 0;
}
