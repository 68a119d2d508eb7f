// Issue 17, idiom 6: `__thread` variables are one copy per thread. Each thread starts with the
// initial value of its own copy (not its creator's current value), increments it, and sees
// only its own stores; arrays and structs in thread-local storage too.
#include <assert.h>
#include <pthread.h>

__thread int counter;
static __thread int hits = 5;
__thread int arr[4];
static __thread struct {
  int a;
  long b;
} rec = {1, 2};

static void *worker(void *arg) {
  (void)arg;
  assert(counter == 0); // PROVED: the copy starts at 0, although main set its own to 7
  assert(hits == 5); // PROVED: the initialiser
  assert(rec.a == 1 && rec.b == 2); // PROVED
  assert(arr[1] == 0); // PROVED
  counter++;
  counter++;
  hits += 10;
  arr[2] = 9;
  rec.b = 40;
  assert(counter == 2); // PROVED: the other worker's increments are in its own copy
  assert(hits == 15); // PROVED
  assert(rec.b == 40); // PROVED
  return 0;
}

int main(void) {
  pthread_t a, b;
  counter = 7;
  rec.a = 3;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  assert(counter == 7); // PROVED
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 7); // PROVED: main's copy
  assert(hits == 5); // PROVED
  assert(arr[2] == 0); // PROVED
  assert(rec.a == 3 && rec.b == 2); // PROVED
  return 0;
}
