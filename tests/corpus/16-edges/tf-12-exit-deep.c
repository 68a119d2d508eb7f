// pthread_exit past the inlining budget (a call chain deeper than 48): the call that is not
// inlined ends the thread before its store.
#include <assert.h>
#include <pthread.h>

static int x = 0;

static void c60(void) { pthread_exit(0); }
static void c59(void) { c60(); }
static void c58(void) { c59(); }
static void c57(void) { c58(); }
static void c56(void) { c57(); }
static void c55(void) { c56(); }
static void c54(void) { c55(); }
static void c53(void) { c54(); }
static void c52(void) { c53(); }
static void c51(void) { c52(); }
static void c50(void) { c51(); }
static void c49(void) { c50(); }
static void c48(void) { c49(); }
static void c47(void) { c48(); }
static void c46(void) { c47(); }
static void c45(void) { c46(); }
static void c44(void) { c45(); }
static void c43(void) { c44(); }
static void c42(void) { c43(); }
static void c41(void) { c42(); }
static void c40(void) { c41(); }
static void c39(void) { c40(); }
static void c38(void) { c39(); }
static void c37(void) { c38(); }
static void c36(void) { c37(); }
static void c35(void) { c36(); }
static void c34(void) { c35(); }
static void c33(void) { c34(); }
static void c32(void) { c33(); }
static void c31(void) { c32(); }
static void c30(void) { c31(); }
static void c29(void) { c30(); }
static void c28(void) { c29(); }
static void c27(void) { c28(); }
static void c26(void) { c27(); }
static void c25(void) { c26(); }
static void c24(void) { c25(); }
static void c23(void) { c24(); }
static void c22(void) { c23(); }
static void c21(void) { c22(); }
static void c20(void) { c21(); }
static void c19(void) { c20(); }
static void c18(void) { c19(); }
static void c17(void) { c18(); }
static void c16(void) { c17(); }
static void c15(void) { c16(); }
static void c14(void) { c15(); }
static void c13(void) { c14(); }
static void c12(void) { c13(); }
static void c11(void) { c12(); }
static void c10(void) { c11(); }
static void c9(void) { c10(); }
static void c8(void) { c9(); }
static void c7(void) { c8(); }
static void c6(void) { c7(); }
static void c5(void) { c6(); }
static void c4(void) { c5(); }
static void c3(void) { c4(); }
static void c2(void) { c3(); }
static void c1(void) { c2(); }
static void c0(void) { c1(); }

static void *f(void *arg) {
    (void)arg;
    c0();
    x = 1;
    return 0;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, f, 0);
    pthread_join(a, 0);
    assert(x == 1); // FAILS! c60 ended the thread
    return 0;
}
