// Globals with initializers: scalars of several widths, static and extern-visible.
#include <assert.h>

int g = 42;
static int h = -7;
unsigned long ul = 1UL << 40;
char letter = 'A';
short sh = -300;
_Bool flag = 1;
int zero;

int main(void) {
    assert(g == 42);           // PROVED
    assert(h == -7);           // PROVED
    assert(ul == 1UL << 40);   // PROVED
    assert(letter == 65);      // PROVED
    assert(sh == -300);        // PROVED
    assert(flag);              // PROVED
    assert(zero == 0);         // PROVED: zero-initialized
    g = g + 1;
    assert(g == 43); // PROVED: strong update
    h = h * 2;
    assert(h == -14); // PROVED
    return 0;
}
