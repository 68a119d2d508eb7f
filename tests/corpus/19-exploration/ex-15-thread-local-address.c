// The address of a thread-local variable handed to another thread names the copy of the
// thread that took it: the writer writes main's copy, not its own. The analysis cannot follow
// the address (an unknown pointer), the interpreter runs it as C means it, so a proof by
// exploration sees every execution.
//PROOF: complete
#include <assert.h>
#include <pthread.h>

__thread int x;

static void *writer(void *p) {
    *(int *)p = 1;
    x = 5; // the writer's own copy
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, &x);
    pthread_join(t, 0);
    assert(x == 1); // TODO: true (main's copy, written through the argument)
    return 0;
}
