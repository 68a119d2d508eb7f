// A copy inside one object in a loop shifts the bytes an integer store wrote by one more byte
// on every visit: the points-to analysis must still reach its fixpoint (it records at most a
// few ranges per object with a known offset, then "anywhere").
#include <assert.h>
#include <string.h>

static char buf[64];
static int *slots[4];
static int x;
extern int __VERIFIER_nondet_int(void);

int main(void) {
    long v = __VERIFIER_nondet_int();
    for (int i = 0; i < 10; i++) {
        memmove(buf + 1, buf, 32);
        memcpy(buf, &v, sizeof v);
    }
    slots[0] = &x;
    memcpy(&slots[1], buf, sizeof(int *)); // pointer bytes that came from an integer
    *slots[1] = 5;
    x = 1;
    assert(x == 1); // PROVED: x is written last, in the one thread
    int *p;
    memcpy(&p, buf + 3, sizeof p);
    (void)p;
    return 0;
}
