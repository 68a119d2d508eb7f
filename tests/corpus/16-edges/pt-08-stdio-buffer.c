// `setvbuf` hands a program buffer to stdio: a later `printf` writes into it although none of
// its arguments names it.
#include <assert.h>
#include <stdio.h>

static struct {
    int first;
    char rest[BUFSIZ];
} buf;
static int other;

int main(void) {
    setvbuf(stdout, (char *)&buf, _IOFBF, sizeof buf);
    buf.first = 0;
    printf("AAAA");
    assert(other == 0);     // PROVED
    assert(buf.first == 0); // FAILS! printf buffered its output there
    return 0;
}
