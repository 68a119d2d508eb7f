// Calls to unknown external functions (declared, not defined): they may change every visible
// global and everything reachable from their arguments, and return any value.
#include <assert.h>

extern void ext(int *p);
extern int ext_val(void);
extern void ext_void(void);

int g = 1;
static int s = 2;

int main(void) {
    int loc = 3;
    int kept = 0;
    int *kp = &kept; // kept lives in memory, but its address is not passed on
    *kp = 4;
    ext(&loc);
    assert(loc == 3); // FAILS! ext may write *p
    assert(kept == 4); // PROVED: no pointer to kept escapes
    assert(g == 1); // FAILS! ext may write any visible global
    assert(s == 2); // PROVED: static and its address never escapes
    int r = ext_val();
    assert(r >= 0); // FAILS! any int
    g = 10;
    ext_void();
    assert(g == 10); // FAILS!
    return 0;
}
