// Issue 17, the failing side of struct initialisers: the values are the initialiser's, the same
// struct initialised again holds the new ones, and a table too large to be copied scalar by
// scalar is still copied (its values unknown, never wrong), and so is a copy into an object
// of another type, whose fields may lie in the constant's padding.
#include <assert.h>
#include <string.h>

struct pair {
  int a;
  int b;
};

static int other(void) {
  int table[100] = {7, 8, 9};
  assert(table[1] == 8); // MAY-FAIL: true, but arrays are summarised and this one is copied
  assert(table[99] == 7); // FAILS! the rest is zero
  return 0;
}

static int again(void) {
  struct pair q = {3, 4};
  q = (struct pair){5, 6};
  assert(q.a == 3); // FAILS! q was assigned {5, 6}
  return 0;
}

struct gapped {
  char c; // 3 bytes of padding follow
  int i;
};

struct tight {
  char x;
  char y;
  short z;
  int w;
};

static const struct gapped constant = {'a', 1};

static int punned(void) {
  struct tight d;
  d.y = 9;
  memcpy(&d, &constant, sizeof d);
  assert(d.y == 9); // FAILS! the copy wrote the constant's padding (zero) over it
  return 0;
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 3)
    return punned();
  if (argc > 2)
    return again();
  if (argc > 1)
    return other();
  struct pair p = {1, 2};
  assert(p.b == 1); // FAILS! b is 2
  return 0;
}
