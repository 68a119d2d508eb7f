// Locals whose address is taken stay in memory; writes through resolved pointers update them.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

static void set(int *q, int v) { *q = v; }

int main(void) {
    int x;
    int *p = &x;
    *p = 5;
    assert(x == 5); // PROVED
    int y = 0;
    set(&y, 7);
    assert(y == 7); // PROVED: the callee writes through its parameter
    int a = 1, b = 2;
    int *r = __VERIFIER_nondet_int() ? &a : &b;
    *r = 3;
    assert(a >= 1 && a <= 3); // PROVED: a weak update, 1 or 3
    assert(a != 2); // MAY-FAIL: true, but 2 lies in [1, 3]
    assert(b >= 2 && b <= 3); // PROVED
    int arr[3] = {4, 5, 6};
    int *e = &arr[1];
    *e = 9;
    assert(arr[0] >= 4 && arr[0] <= 9); // MAY-FAIL: true; the initializer is an llvm.memcpy, which clobbers today
    return 0;
}
