// A destructor runs at exit, outside what the interpreter runs from `main`: no proof.
//PROOF: gap destructors
#include <assert.h>

int x;

__attribute__((destructor)) static void finish(void) {
    assert(x == 0); // FAILS! main set 1 before it returned
}

int main(void) {
    x = 1;
    return 0;
}
