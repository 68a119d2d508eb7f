// __VERIFIER_assert(c), declared only: fails when reached with c == 0.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 10)
        return 0;
    __VERIFIER_assert(x <= 10); // PROVED
    __VERIFIER_assert(x * 2 >= 0); // PROVED
    __VERIFIER_assert(x < 5); // FAILS!
    int y = x + 1;
    __VERIFIER_assert(y != 0); // PROVED
    return 0;
}
