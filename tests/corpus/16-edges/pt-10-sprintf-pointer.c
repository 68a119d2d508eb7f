// `sprintf("%p")` turns an address into text and `sscanf("%p")` turns it back into a pointer.
#include <assert.h>
#include <stdio.h>

static int x;
static int y;

int main(void) {
    char buf[64];
    int *q = 0;
    sprintf(buf, "%p", (void *)&x);
    sscanf(buf, "%p", (void **)&q);
    x = 0;
    *q = 1;
    assert(y == 0); // PROVED
    assert(x == 0); // FAILS! written through the pointer read back from the text
    return 0;
}
