// Globals of struct type: fields, nested structs, arrays of structs, arrays in structs.
#include <assert.h>

struct point {
    int x;
    int y;
};
struct rect {
    struct point lo, hi;
    unsigned char tag;
};
struct buffer {
    int len;
    char data[4];
    long total;
};

struct point p = {3, -4};
struct rect r = {{0, 0}, {10, 20}, 1};
struct point pts[3] = {{1, 2}, {3, 4}, {5, 6}};
static struct buffer buf = {2, "ab", 100000000000L};

int main(void) {
    assert(p.x == 3);      // PROVED
    assert(p.y == -4);     // PROVED
    assert(r.hi.y == 20);  // PROVED
    assert(r.lo.x == 0);   // PROVED
    assert(r.tag == 1);    // PROVED
    assert(pts[1].y >= 2 && pts[1].y <= 6); // PROVED: one summary per field
    assert(pts[1].x <= 5); // PROVED
    assert(buf.len == 2);  // PROVED
    assert(buf.total == 100000000000L); // PROVED: the field after the array
    p.x = 5;
    assert(p.x == 5);  // PROVED
    assert(p.y == -4); // PROVED: the other field is untouched
    r.hi = p;
    assert(r.hi.x == 5); // MAY-FAIL: true; the struct copy is an llvm.memcpy, which clobbers today
    return 0;
}
