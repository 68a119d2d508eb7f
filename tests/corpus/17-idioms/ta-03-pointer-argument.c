// Issue 17, idiom 3: a pointer argument points to what was passed; the thread reads what main
// set up before creating it and main, after the join, reads what the thread wrote.
#include <assert.h>
#include <pthread.h>

struct job {
  int id;
  int done;
};

static void *run(void *arg) {
  struct job *j = arg;
  assert(j->id == 3); // PROVED
  j->done = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  struct job jb;
  jb.id = 3;
  jb.done = 0;
  pthread_create(&t, 0, run, &jb);
  pthread_join(t, 0);
  assert(jb.done == 1); // PROVED(constraints) the join orders the thread's store first
  assert(jb.id == 4); // FAILS! nobody wrote 4
  return 0;
}
