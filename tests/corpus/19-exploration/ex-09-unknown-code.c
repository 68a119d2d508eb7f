// A function defined elsewhere may write any global it names: no proof.
//PROOF: gap unknown function
#include <assert.h>

int g;
extern void elsewhere(void);

int main(void) {
    g = 1;
    elsewhere();
    assert(g == 1); // FAILS! another unit's `elsewhere` sets g = 2
    return 0;
}
