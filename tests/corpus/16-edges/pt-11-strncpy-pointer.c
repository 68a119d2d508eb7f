// `strncpy` copies a pointer's bytes into another pointer variable. The copy is exact when the
// address has no zero byte before its last one; `q == p` keeps the store to that case.
#include <assert.h>
#include <stdint.h>
#include <string.h>

static int x[64];
static int y;

int main(void) {
    int *p = &x[0];
    /* pick an element whose address has no zero byte in its low 4 bytes, as strncpy stops there */
    for (int i = 0; i < 64; i++) {
        uintptr_t a = (uintptr_t)&x[i];
        if ((a & 0xff) && (a & 0xff00) && (a & 0xff0000) && (a & 0xff000000)) {
            p = &x[i];
            break;
        }
    }
    int *q = 0;
    strncpy((char *)&q, (char *)&p, sizeof p);
    int sum = 0;
    if (q == p)
        *q = 1;
    for (int i = 0; i < 64; i++)
        sum += x[i];
    assert(y == 0);   // PROVED
    assert(sum == 0); // FAILS! written through the copied pointer
    return 0;
}
