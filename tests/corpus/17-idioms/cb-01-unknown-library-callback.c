// A function handed to a library watts has no row for (issue 36): `lib_start` is declared, not
// defined, and not in the library table, so it may run `tick` in a thread of its own (as
// Goblint's `unknown(f)` spawns one): `tick` runs in any thread at any time, and its write races
// with main's even though the program creates no thread. A known row keeps its callback in the
// program's threads: `signal`'s handler interrupts main only (`ra-69-callbacks-main-only.c`).
#include <signal.h>

void lib_start(void (*fn)(void));

static int ticks, seen;

static void tick(void) {
    ticks++; // RACE!: the library may run it in a thread of its own
}

static void on_signal(int sig) {
    (void)sig;
    seen = 1; // NO-RACE: a signal handler runs in a thread of the program, here main alone
}

int main(void) {
    signal(SIGUSR1, on_signal);
    lib_start(tick);
    ticks = 0; // RACE!
    seen = 0;  // NO-RACE
    return 0;
}
