// Issue 17, idiom 5: two counters set to the same constant before a loop that steps both keep
// their equality with octagons (the phis are related where the constant reaches them); the
// interval domain cannot say it. The failing side: counters that start apart stay apart.
#include <assert.h>

int main(int argc, char **argv) {
  (void)argv;
  int n = argc > 100 ? 100 : argc;
  int i = 0, j = 0;
  while (i < n) {
    i++;
    j++;
  }
  assert(i == j); // PROVED(octagon)
  int a = 0, b = 1;
  while (a < n) {
    a++;
    b++;
  }
  assert(b == a + 1); // PROVED(octagon)
  assert(a == b); // FAILS! b started one ahead
  return 0;
}
