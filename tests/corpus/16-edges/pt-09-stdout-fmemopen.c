// `stdout` reopened on a program buffer with `fmemopen`: `printf` writes into the buffer.
#include <assert.h>
#include <stdio.h>

static struct {
    int first;
    char rest[60];
} buf;
static int other;

int main(void) {
    stdout = fmemopen(&buf, sizeof buf, "w");
    setvbuf(stdout, 0, _IONBF, 0);
    buf.first = 0;
    printf("AAAA");
    assert(other == 0);     // PROVED
    assert(buf.first == 0); // FAILS! the unbuffered memory stream wrote "AAAA"
    return 0;
}
