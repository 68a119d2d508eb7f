// A site that allocates in a loop makes two blocks: one summary, no strong updates.
#include <assert.h>
#include <stdlib.h>
struct node { int val; };
struct node *first, *last;
int main(void) {
    for (int i = 0; i < 2; i++) {
        struct node *n = malloc(sizeof *n);
        if (!n) return 0;
        n->val = 5;
        if (i == 0) first = n;
        last = n;
    }
    last->val = 7;
    assert(first->val == 7); // FAILS!: first is the other block
    return 0;
}
