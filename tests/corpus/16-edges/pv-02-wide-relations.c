// Relations between cells at the far end of a wide state (300 cells of one struct, several
// levels of the persistent environment): the octagon's packs and per-variable intervals live in
// the shared vectors, and a loop's widening and narrowing must keep them.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

#define F10(p) int p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9;
struct wide {
  F10(a)
  F10(b)
  F10(c)
  F10(d)
  F10(e)
  F10(f)
  F10(g)
  F10(h)
  F10(i)
  F10(j)
  F10(k)
  F10(l)
  F10(m)
  F10(n)
  F10(o)
  F10(p)
  F10(q)
  F10(r)
  F10(s)
  F10(t)
  F10(u)
  F10(v)
  F10(w)
  F10(x)
  F10(y)
  F10(z)
  F10(A)
  F10(B)
  F10(C)
  F10(D)
};
struct wide w;

static void *reader(void *arg) {
  (void)arg;
  int v = w.a1;
  assert(v == 0 || v == 5); // PROVED(flow-sensitive)
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  w.a1 = 5;
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000)
    return 0;
  w.D8 = n;
  w.D9 = 0;
  while (w.D9 < w.D8) {
    assert(w.D9 < n);  // PROVED(octagon)
    w.D9 = w.D9 + 1;
  }
  assert(w.D9 <= 1000); // PROVED
  assert(w.D9 != 1000); // FAILS! n may be 1000
  pthread_join(t, 0);
  return 0;
}
