// Issue 16: `check` and `set` are both reached through an ops table, so each is analysed on its
// own from an unknown state. Analysed on its own, `check` does not inline `set` (which is
// analysed on its own anyway): the call stays a call, which may change whatever `set` writes.
// The table is one of two, so that each call through it may name two functions (issue 35: a
// call through a pointer that names one function is inlined like a direct call, which
// 04-calls/05-pointer-call.c checks).
#include <assert.h>

struct ops {
  void (*set)(int *);
  void (*check)(void);
};

int x;

static void set(int *p) {
  x = 1;
  *p = 3;
}

static void check(void) {
  int mine = 5;
  int other = 0;
  x = 0;
  set(&other);
  int v = x;
  assert(mine == 5); // PROVED: `set` cannot reach `mine`
  assert(other == 0); // FAILS! `set` wrote 3 through the pointer
  // Reached only where the assertion above held, which it never does: the check is that
  // the analysis does not prove it (`set` wrote 1).
  assert(v == 0); // MAY-FAIL: never reached after the failure above; `set` wrote 1
}

static void set_none(int *p) { (void)p; }
static void check_none(void) {}

static struct ops tables[2] = {{set, check}, {set_none, check_none}};

int main(int argc, char **argv) {
  (void)argv;
  int y = 0;
  tables[argc > 1].set(&y);
  tables[argc > 1].check();
  return y;
}
