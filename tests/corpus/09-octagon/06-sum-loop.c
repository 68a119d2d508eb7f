// i + j == 10 through a loop. Packs are created by transfers that relate two variables; i and j
// are only ever related through constants (0 and 10, then 1 and 9), so no pack holds both and
// their join loses i + j == 10 (an octagon over all variables would keep it).
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int i = 0, j = 10;
    while (i < 10) {
        assert(i + j == 10); // TODO: true; no pack relates i and j
        i++;
        j--;
    }
    assert(j == 0); // TODO: true; needs i + j == 10 at the exit
    int k = 0;
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 100)
        return 0;
    while (k < n) {
        int next = k + 1;
        assert(next <= n); // PROVED(octagon): k < n, next == k + 1
        k = next;
    }
    return 0;
}
