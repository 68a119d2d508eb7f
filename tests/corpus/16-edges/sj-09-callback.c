// A library function that calls back into code that jumps: qsort's comparator longjmps.
#include <assert.h>
#include <setjmp.h>
#include <stdlib.h>

jmp_buf env;
static int calls;

int cmp(const void *a, const void *b) {
  calls = 1;
  longjmp(env, 1);
}

int main(void) {
  int a[2] = {2, 1};
  calls = 0;
  if (setjmp(env) == 0)
    qsort(a, 2, sizeof a[0], cmp);
  assert(calls == 0); // FAILS! the comparator ran and jumped
  return 0;
}
