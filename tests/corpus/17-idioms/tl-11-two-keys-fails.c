// Issue 17, idiom 6: keys created in a loop are several keys, each with its own value; they
// are not taken as one (the calls stay unknown functions).
#include <assert.h>
#include <pthread.h>

int main(void) {
  pthread_key_t keys[2];
  for (int i = 0; i < 2; i++)
    pthread_key_create(&keys[i], 0);
  pthread_setspecific(keys[0], (void *)1);
  long first = (long)pthread_getspecific(keys[0]);
  assert(first == 1); // MAY-FAIL: true, but several keys are not modelled
  long second = (long)pthread_getspecific(keys[1]);
  assert(second == 1); // FAILS! the second key's value is NULL
  return 0;
}
