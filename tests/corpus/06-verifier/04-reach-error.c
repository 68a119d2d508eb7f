// reach_error() and __VERIFIER_error(), declared only: reaching the call is the failure.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_error(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 10)
        return 0;
    if (x > 10)
        reach_error(); // UNREACHABLE
    if (x * 3 > 30)
        __VERIFIER_error(); // UNREACHABLE
    if (x == 7)
        reach_error(); // FAILS! x may be 7
    return 0;
}
