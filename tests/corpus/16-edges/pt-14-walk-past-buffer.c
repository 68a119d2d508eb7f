// A pointer walked through a buffer that has no terminator runs past it into the next field
// (gcc -O0 writes `tag`). The points-to analysis keeps a few offsets per object and then says
// "anywhere in it": that must still cover `tag`, and nothing outside `r`.
#include <assert.h>

struct rec {
    char name[16];
    int tag;
};
static struct rec r;
static int other;

int main(void) {
    for (int i = 0; i < 16; i++)
        r.name[i] = 'a';
    r.tag = 0;
    other = 0;
    char *p = r.name;
    while (*p)
        p++;
    *p = 'z';
    assert(r.tag == 0); // FAILS! the walk ran past `name` and wrote the first byte of `tag`
    assert(other == 0); // PROVED: `p` never leaves `r`
    return 0;
}
