// Issue 16: a store through a pointer made from an integer writes every exposed cell (here
// more than 256 of them: the 300 globals and `x`). Such a store is kept as "wide" (its cells,
// not one event per cell), and a load that may read it reads the joined interference.
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

#define G1(n) int g##n;
#define G10(n) G1(n##0) G1(n##1) G1(n##2) G1(n##3) G1(n##4) G1(n##5) G1(n##6) G1(n##7) G1(n##8) G1(n##9)
#define G100(n) G10(n##0) G10(n##1) G10(n##2) G10(n##3) G10(n##4) G10(n##5) G10(n##6) G10(n##7) G10(n##8) G10(n##9)
G100(1) G100(2) G100(3)

int x;

static void *writer(void *arg) {
  uintptr_t a = (uintptr_t)&x;
  int *p = (int *)a;
  *p = 7;
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  int v = x;
  assert(v >= 0 && v <= 7); // PROVED
  assert(v == 0); // FAILS!
  return 0;
}
