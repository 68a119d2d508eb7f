// `main`'s arguments are any: `./prog a b` has argc == 3. No proof is attempted.
//PROOF: gap argc
#include <assert.h>

int main(int argc, char **argv) {
    (void)argv;
    assert(argc == 1); // FAILS! run with arguments
    return 0;
}
