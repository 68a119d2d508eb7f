// A write through a pointer the analysis cannot resolve (it went through an integer) may write
// any location whose address escaped; locations whose address never escaped keep their value.
#include <assert.h>
#include <stdint.h>

int g = 1;
int other = 5;
static int hidden = 9;

int main(void) {
    uintptr_t addr = (uintptr_t)&g;
    int *p = (int *)addr;
    *p = 2;
    assert(g == 1); // FAILS! p is &g
    assert(other == 5); // MAY-FAIL: true, but `other` is a visible global, and p is unknown
    assert(hidden == 9); // PROVED: its address is never taken
    return 0;
}
