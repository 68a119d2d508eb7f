// An entry of the table that the driver's own code also calls through the table: as its
// thread it starts outside any call (`inside` is 0 in every thread of its own), but the call
// through the pointer runs it inside `do_ioctl`, where `inside` is 1. The harness must still
// analyse that call (the callee analysed on its own), not only the entry's thread.
//PARAM: --init dev_init --entries-from ops
#include <assert.h>

static __thread int inside;
static int events;

struct ops { void (*event)(void); void (*ioctl)(void); };
static void on_event(void);
static void do_ioctl(void);
static const struct ops ops = { on_event, do_ioctl };
static const struct ops *cur; // the table in use, set by the init

static void on_event(void) {
    events++;
    assert(inside == 0); // FAILS! do_ioctl calls it through the table with inside == 1
}

static void do_ioctl(void) {
    inside = 1;
    cur->event();
    inside = 0;
}

extern int register_ops(const struct ops *table);
int dev_init(void) { cur = &ops; return register_ops(&ops); }
