// Direct calls to defined functions, from several contexts with different constants: a
// context-sensitive analysis proves every call on its own.
#include <assert.h>

static int counter;

static int twice(int v) { return 2 * v; }

static int clamp(int v, int lo, int hi) {
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

static void bump(void) { counter = counter + 1; }

static int positive(int v) {
    assert(v > 0); // PROVED: called with 3 and with 8
    return v;
}

int main(void) {
    int a = twice(3);
    int b = twice(21);
    assert(a == 6);  // PROVED
    assert(b == 42); // PROVED
    int c = clamp(150, 0, 100);
    int d = clamp(-5, 0, 100);
    assert(c == 100); // PROVED
    assert(d == 0);   // PROVED
    bump();
    bump();
    bump();
    assert(counter == 3); // PROVED: every call is analysed in its own context
    int e = positive(3) + positive(8);
    assert(e == 11); // PROVED
    return 0;
}
