// A retry loop made of setjmp and longjmp: the counter lives in memory and grows across jumps.
#include <assert.h>
#include <setjmp.h>

jmp_buf env;

int main(void) {
  int tries = 0;
  setjmp(env);
  tries++;
  if (tries < 3)
    longjmp(env, 1);
  assert(tries >= 1); // PROVED
  assert(tries == 3); // PROVED
  assert(tries == 1); // FAILS! the third attempt gets here
  return 0;
}
