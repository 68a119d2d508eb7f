// Calls through pointers (issue 35): a pointer whose points-to set names one defined function
// calls that function, so the call is inlined like a direct call, in its context; a pointer
// that may name two functions is a call of functions analysed on their own, from an unknown
// state (a pointer that comes from code the analysis does not see is an unknown call:
// `threads::resolve`'s unit tests).
#include <assert.h>

static int counter;

static void bump(int by) { counter = counter + by; }

static void apply(void (*f)(int), int v) { f(v); }

static int checked(int v) {
    assert(v == 21); // PROVED: `pass` hands it 21, and nothing else names it
    return v + 1;
}

static int pass(int (*f)(int), int v) { return f(v); }

static int twice(int v) { return 2 * v; }
static int thrice(int v) { return 3 * v; }

static int via(int (*f)(int), int v) { return f(v); }

int main(void) {
    apply(bump, 3);
    assert(counter == 3); // PROVED: `f` can only be `bump`, inlined with `by` = 3
    int r = pass(checked, 21);
    assert(r == 22); // PROVED
    int a = via(twice, 1);
    assert(a == 2); // MAY-FAIL: true, but `f` may be `twice` or `thrice`: neither is inlined
    int b = via(thrice, 1);
    assert(b == 2); // FAILS! `b` is 3
    return 0;
}
