// Callbacks run in the threads of the program (issue 36), unless the function they are handed
// to runs them in a thread of its own: a `SIGEV_THREAD` timer's function runs in a new thread
// the C library starts, so in a program that creates no thread itself it still races with
// main (`Props::callbacks_elsewhere`: every callback then runs anywhere).
// ThreadSanitizer (gcc 12 -fsanitize=thread) reports nothing: glibc starts the timer's thread
// inside the library, out of its sight. helgrind (valgrind 3.19) reports the race on `fired`
// between `on_timer` (line 17) and main (line 33).
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int fired;

static void on_timer(union sigval v) {
    (void)v;
    fired++; // RACE!: runs in the timer's own thread
}

int main(void) {
    timer_t id;
    struct sigevent ev;
    struct itimerspec when;
    memset(&ev, 0, sizeof ev);
    memset(&when, 0, sizeof when);
    ev.sigev_notify = SIGEV_THREAD;
    ev.sigev_notify_function = on_timer;
    when.it_value.tv_nsec = 1000000;
    if (timer_create(CLOCK_MONOTONIC, &ev, &id) != 0)
        return 1;
    timer_settime(id, 0, &when, 0);
    usleep(20000);
    fired++; // RACE!
    return fired;
}
