//! Driver entry points: `--init` and `--entry FN[:N|*]` synthesize a harness for code that has
//! no `main` (issue 7, point 2). The harness must over-approximate every concurrent run of the
//! entry points: these tests check both that it proves what holds after init and that it never
//! proves what fails in some interleaving, instance count or argument value.

mod common;
use common::*;

/// A small watchdog driver: no `main`, no thread creation.
const DRIVER: &str = r#"#include <assert.h>
struct file { int flags; };
static int ready;
static int timeout = -1;
static int open_count;

int wdt_init(void) { timeout = 60; ready = 1; return 0; }

int wdt_open(struct file *f) {
  if (!ready) return -1;
  open_count = open_count + 1;
  return 0;
}

long wdt_write(struct file *f, const char *buf, unsigned long len) {
  assert(timeout >= 1 && timeout <= 60);
  if (len > 0 && buf[0] == 'V') timeout = 30;
  return (long)len;
}

void wdt_irq(int irq) {
  assert(ready == 1);
}

int wdt_release(struct file *f) {
  assert(open_count <= 1);
  open_count = 0;
  return 0;
}
"#;

fn driver() -> tempfile::TempDir {
    project(&[("wdt.c", DRIVER)])
}

fn status_of(doc: &serde_json::Value, cond: &str) -> String {
    statuses(doc)
        .into_iter()
        .find(|(c, _)| c == cond)
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("no assertion `{cond}` in {doc}"))
}

#[test]
fn driver_without_main_needs_entries() {
    let dir = driver();
    let o = watts_in(dir.path(), &["analyze", "wdt.c"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("--entry"), "{}", stderr(&o));
}

#[test]
fn init_runs_first_then_entries_concurrently() {
    let dir = driver();
    let (doc, code) = json_in(
        dir.path(),
        &[
            "--init",
            "wdt_init",
            "--entry",
            "wdt_open",
            "--entry",
            "wdt_write:2",
            "--entry",
            "wdt_irq:*",
            // The two writers race on `timeout`: only the assertions matter here.
            "--check",
            "assert",
            "wdt.c",
        ],
    );
    // After init, `ready` is 1 and `timeout` stays in [30, 60] whatever the writers do.
    assert_eq!(
        status_of(&doc, "timeout >= 1 && timeout <= 60"),
        "proved",
        "{doc}"
    );
    assert_eq!(status_of(&doc, "ready == 1"), "proved", "{doc}");
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["config"]["harness"]["init"], "wdt_init");
    assert_eq!(doc["config"]["harness"]["entries"][2], "wdt_irq:*");
    // Threads are named after the entry points; two instances of wdt_write.
    let threads = doc["assertions"]
        .as_array()
        .expect("assertions")
        .iter()
        .flat_map(|a| a["threads"].as_array().cloned().unwrap_or_default())
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect::<Vec<_>>();
    assert!(threads.contains(&"wdt_write#2".to_string()), "{threads:?}");
}

/// Soundness: without the init, the entries may run on the initial state, and both
/// assertions really fail.
#[test]
fn without_init_the_initial_state_is_seen() {
    let dir = driver();
    let (doc, code) = json_in(
        dir.path(),
        &["--entry", "wdt_write", "--entry", "wdt_irq", "wdt.c"],
    );
    assert_eq!(status_of(&doc, "timeout >= 1 && timeout <= 60"), "may-fail");
    assert_eq!(status_of(&doc, "ready == 1"), "may-fail");
    assert_eq!(code, 1);
}

/// Soundness: several instances of an entry interfere with each other. One open and one
/// release cannot make `open_count` exceed 1; with two opens (or any number) it can.
#[test]
fn instances_interfere_with_each_other() {
    let dir = driver();
    let base = ["--init", "wdt_init", "--entry", "wdt_release"];
    let with = |open: &str| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(["--entry", open, "wdt.c"]);
        let (doc, _) = json_in(dir.path(), &args);
        status_of(&doc, "open_count <= 1")
    };
    assert_eq!(with("wdt_open"), "proved");
    assert_eq!(with("wdt_open:2"), "may-fail");
    assert_eq!(with("wdt_open:*"), "may-fail");
    assert_eq!(with("wdt_open:100"), "may-fail");
}

/// Soundness: every parameter is any value, and a pointer parameter may point to any memory
/// whose address escaped (here a non-static global), also past the first parameter.
#[test]
fn arguments_are_any_value_and_pointers_any_memory() {
    let dir = project(&[(
        "alias.c",
        r#"#include <assert.h>
int g = 0;
void poke(int how, int *p) { if (how == 3) *p = 5; }
void check(int n) { assert(g == 0); assert(n != 7); }
"#,
    )]);
    let (doc, code) = json_in(
        dir.path(),
        &["--entry", "poke", "--entry", "check", "alias.c"],
    );
    assert_eq!(status_of(&doc, "g == 0"), "may-fail", "{doc}");
    assert_eq!(status_of(&doc, "n != 7"), "may-fail", "{doc}");
    assert_eq!(code, 1);
    // Without the poking entry the global keeps its value.
    let (doc, _) = json_in(dir.path(), &["--entry", "check", "alias.c"]);
    assert_eq!(status_of(&doc, "g == 0"), "proved", "{doc}");
}

#[test]
fn unknown_or_undefined_entries_are_input_errors() {
    let dir = project(&[("d.c", "void ext(void);\nvoid f(void) { ext(); }\n")]);
    let o = watts_in(dir.path(), &["analyze", "--entry", "nope", "d.c"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("no function `nope`") && stderr(&o).contains("defined: f"));
    let o = watts_in(
        dir.path(),
        &["analyze", "--entry", "f", "--init", "ext", "d.c"],
    );
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("declared but not defined"),
        "{}",
        stderr(&o)
    );
    let o = watts_in(dir.path(), &["analyze", "--entry", "f:0", "d.c"]);
    assert_status(&o, 2);
    // A driver with many functions: the list of what is defined is bounded.
    let many: String = (0..25)
        .map(|i| format!("void fn{i:02}(void) {{}}\n"))
        .collect();
    let dir = project(&[("m.c", &many)]);
    let o = watts_in(dir.path(), &["analyze", "--entry", "nope", "m.c"]);
    assert_status(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("defined: fn00, fn01,")
            && err.contains("fn09 and 15 more")
            && !err.contains("fn24"),
        "{err}"
    );
}

/// A program that has a `main` can still be analysed through its entry points; its `main`
/// runs only when named.
#[test]
fn existing_main_is_replaced_by_the_harness() {
    let dir = project(&[(
        "m.c",
        r#"#include <assert.h>
int x;
void setup(void) { x = 1; }
void use(void) { assert(x == 1); }
int main(void) { x = 2; use(); return 0; }
"#,
    )]);
    let (doc, _) = json_in(dir.path(), &["--init", "setup", "--entry", "use", "m.c"]);
    assert_eq!(status_of(&doc, "x == 1"), "proved", "{doc}");
    let (doc, _) = json_in(dir.path(), &["--entry", "main", "m.c"]);
    assert_eq!(status_of(&doc, "x == 1"), "may-fail", "{doc}");
}

/// Entry-point arguments are inputs: `confirm` solves for an integer argument the candidate
/// values never reach (issue 9, point 2), and the witness replays with the argument forced.
#[test]
fn confirm_solves_for_an_entry_arguments_value() {
    let dir = project(&[(
        "ioctl.c",
        r#"#include <assert.h>
static int armed;
void dev_arm(void) { armed = 1; }
long dev_ioctl(unsigned cmd, long arg) {
  if (armed && cmd == 0x4B1D) {
    assert(arg * 3 + 7 != 1000);
  }
  return 0;
}
"#,
    )]);
    let run = |strategy: &str| {
        json_in(
            dir.path(),
            &[
                "--confirm",
                "--strategy",
                strategy,
                "--confirm-budget",
                "20",
                "--witness-dir",
                "w",
                "--entry",
                "dev_arm",
                "--entry",
                "dev_ioctl",
                "ioctl.c",
            ],
        )
    };
    // The exhaustive search takes inputs from a few candidates: 331 is not one of them.
    let (doc, _) = run("exhaustive");
    assert_eq!(status_of(&doc, "arg * 3 + 7 != 1000"), "may-fail", "{doc}");
    if let Err(why) = watts::explore::strategy::Symbolic::available(std::path::Path::new("z3")) {
        // CI installs z3 (.ci/setup): there the check must run.
        common::missing(&format!("z3 ({why}): the symbolic part"));
        return;
    }
    let (doc, code) = run("symbolic");
    assert_eq!(status_of(&doc, "arg * 3 + 7 != 1000"), "violated", "{doc}");
    assert_eq!(code, 1);
    let steps = doc["assertions"][0]["witness"]["steps"]
        .as_array()
        .expect("steps")
        .clone();
    let inputs: Vec<i64> = steps.iter().filter_map(|s| s["input"].as_i64()).collect();
    assert!(
        inputs.contains(&0x4B1D) && inputs.contains(&331),
        "{inputs:?}"
    );
    let o = watts_in(dir.path(), &["replay", "w/A1.json"]);
    assert_status(&o, 1);
    assert!(stdout(&o).contains("fails again"), "{}", stdout(&o));
}

/// A driver written the way drivers are: the entries in a `struct file_operations` registered
/// through a kernel function the analysis does not see, a mutex inside the device struct beside
/// a ring buffer, an interrupt handler handed to `request_irq`, and a bug (issue 18).
const OPS_DRIVER: &str = r#"#include <assert.h>
#include <pthread.h>
struct file { int flags; };
struct file_operations {
  int (*open)(struct file *);
  long (*write)(struct file *, const char *, unsigned long);
  int (*release)(struct file *);
};
extern int register_chrdev(unsigned int major, const char *name,
                           const struct file_operations *fops);
extern int request_irq(unsigned int irq, void (*handler)(int), unsigned long flags,
                       const char *name, void *dev_id);
static struct { pthread_mutex_t lock; char ring[16]; int users; int count; int irqs; } dev;

static int my_open(struct file *f) {
  pthread_mutex_lock(&dev.lock);
  if (dev.users < 4) dev.users++;
  int u = dev.users;
  pthread_mutex_unlock(&dev.lock);
  assert(u <= 1);
  return 0;
}
static int my_release(struct file *f) {
  pthread_mutex_lock(&dev.lock);
  if (dev.users > 0) dev.users--;
  assert(dev.users >= 0);
  pthread_mutex_unlock(&dev.lock);
  return 0;
}
static long my_write(struct file *f, const char *b, unsigned long n) {
  pthread_mutex_lock(&dev.lock);
  if (dev.count < 16) dev.count++;
  assert(dev.count <= 16);
  pthread_mutex_unlock(&dev.lock);
  int a = dev.irqs;
  int c = dev.irqs;
  assert(a == c);
  return 0;
}
void my_irq(int irq) { dev.irqs++; }
static const struct file_operations my_fops = {
  .open = my_open, .write = my_write, .release = my_release,
};
int my_init(void) {
  pthread_mutex_init(&dev.lock, 0);
  int r = request_irq(3, my_irq, 0, "my", 0);
  if (r < 0) return r;
  return register_chrdev(10, "my", &my_fops);
}
"#;

/// Soundness and precision of ops tables: `--entries-from` makes every function of the table
/// an entry (any number of instances, or `TABLE:N`); the copies that the kernel behind
/// `register_chrdev` would run are those entries, not also functions analysed on their own
/// from an unknown state with any number of instances, so `TABLE:1` keeps one open; the mutex
/// protects what it protects with any number of instances; the bugs are confirmed through the
/// registration calls.
#[test]
fn an_ops_table_is_a_harness() {
    let dir = project(&[("drv.c", OPS_DRIVER)]);
    let o = watts_in(dir.path(), &["analyze", "--suggest-harness", "drv.c"]);
    assert_status(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("my_fops (drv.c:"), "{out}");
    assert!(out.contains("my_open, my_write, my_release"), "{out}");
    assert!(
        out.contains(
            "watts analyze --init my_init --entries-from my_fops --entry 'my_irq:*' drv.c"
        ),
        "{out}"
    );
    let with = |table: &'static str| {
        vec![
            "--init",
            "my_init",
            "--entries-from",
            table,
            "--entry",
            "my_irq:*",
            "drv.c",
        ]
    };
    // One instance of each entry of the table: one open at a time.
    let (doc, code) = json_in(dir.path(), &with("my_fops:1"));
    assert_eq!(code, 1, "{doc}");
    assert_eq!(status_of(&doc, "u <= 1"), "proved", "{doc}");
    assert_eq!(status_of(&doc, "dev.users >= 0"), "proved", "{doc}");
    assert_eq!(status_of(&doc, "dev.count <= 16"), "proved", "{doc}");
    assert_eq!(status_of(&doc, "a == c"), "may-fail", "{doc}");
    assert_eq!(
        doc["config"]["harness"]["entries_from"][0], "my_fops:1",
        "{doc}"
    );
    // Any number of instances: two opens make two users; the mutex still protects.
    let (doc, _) = json_in(dir.path(), &with("my_fops"));
    assert_eq!(status_of(&doc, "u <= 1"), "may-fail", "{doc}");
    assert_eq!(status_of(&doc, "dev.users >= 0"), "proved", "{doc}");
    assert_eq!(status_of(&doc, "dev.count <= 16"), "proved", "{doc}");
    // With my_write alone as an entry, the kernel may still run my_open any number of times
    // (the table reached it): analysed on its own, its assertion is not proved.
    let (doc, _) = json_in(
        dir.path(),
        &["--init", "my_init", "--entry", "my_write", "drv.c"],
    );
    assert_eq!(status_of(&doc, "u <= 1"), "may-fail", "{doc}");
    // The bugs are real and confirmed, through `if (r < 0)` on an unknown function's result
    // and the rounds of instances of the harness.
    let mut confirm = vec!["--confirm", "--confirm-budget", "20", "--witness-dir", "w"];
    confirm.extend(with("my_fops"));
    let (doc, code) = json_in(dir.path(), &confirm);
    assert_eq!(code, 1);
    assert_eq!(status_of(&doc, "a == c"), "violated", "{doc}");
    assert_eq!(status_of(&doc, "u <= 1"), "violated", "{doc}");
    assert_eq!(status_of(&doc, "dev.users >= 0"), "proved", "{doc}");
    for w in ["w/A1.json", "w/A3.json"] {
        let o = watts_in(dir.path(), &["replay", w]);
        assert_status(&o, 1);
    }
}

/// Bad tables are usage errors that name what exists.
#[test]
fn tables_that_do_not_exist_are_errors() {
    let dir = project(&[("drv.c", OPS_DRIVER)]);
    let o = watts_in(dir.path(), &["analyze", "--entries-from", "nope", "drv.c"]);
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("no global `nope`") && stderr(&o).contains("my_fops"),
        "{}",
        stderr(&o)
    );
    let o = watts_in(dir.path(), &["analyze", "--entries-from", "dev", "drv.c"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("holds no pointer"), "{}", stderr(&o));
    let o = watts_in(
        dir.path(),
        &["analyze", "--entries-from", "my_fops:0", "drv.c"],
    );
    assert_status(&o, 2);
}

/// A library has no `main`: `--suggest-harness` lists its exported functions and
/// `--entries-exported` analyses each as an entry of any number of instances, which finds
/// what a second caller breaks.
#[test]
fn a_library_is_analysed_through_its_exported_functions() {
    let lib = r#"#include <assert.h>
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int level, hits;
static int helper(int d) { return d > 0 ? 1 : -1; }
void lib_up(void) {
  hits++;
  pthread_mutex_lock(&m);
  if (level < 10) level++;
  assert(level <= 10);
  pthread_mutex_unlock(&m);
}
int lib_peek(void) {
  pthread_mutex_lock(&m);
  int l = level;
  pthread_mutex_unlock(&m);
  int a = hits;
  assert(a == hits);
  return helper(l);
}
"#;
    let dir = project(&[("lib.c", lib)]);
    let o = watts_in(dir.path(), &["analyze", "lib.c"]);
    assert_status(&o, 2);
    let o = watts_in(dir.path(), &["analyze", "--suggest-harness", "lib.c"]);
    assert_status(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("exported functions"), "{out}");
    assert!(out.contains("lib_up, lib_peek"), "{out}");
    assert!(!out.contains("helper"), "{out}");
    assert!(
        out.contains("watts analyze --entries-exported lib.c"),
        "{out}"
    );
    let (doc, code) = json_in(dir.path(), &["--entries-exported", "lib.c"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(status_of(&doc, "level <= 10"), "proved", "{doc}");
    // Any number of lib_up run beside lib_peek: the unlocked second read may differ.
    assert_eq!(status_of(&doc, "a == hits"), "may-fail", "{doc}");
}

/// `--assume-no-write FN`: the user's word that an undefined function (a kernel's
/// `request_irq`, given the device struct) changes nothing; `--suggest-harness` points at the
/// calls that need it; a name the program does not declare gets a note, not silence.
#[test]
fn an_undefined_function_assumed_to_write_nothing() {
    let drv = r#"#include <assert.h>
extern int request_irq(unsigned int irq, void (*h)(int, void *), unsigned long f,
                       const char *name, void *dev_id);
static struct { int magic; int count; } dev;
void dev_irq(int irq, void *id) { dev.count++; }
int dev_read(void) { assert(dev.magic == 7); return dev.count; }
int dev_init(void) { dev.magic = 7; return request_irq(5, dev_irq, 0, "d", &dev); }
"#;
    let dir = project(&[("d.c", drv)]);
    let o = watts_in(dir.path(), &["analyze", "--suggest-harness", "d.c"]);
    let out = stdout(&o);
    assert!(
        out.contains("`request_irq` gets the address of dev")
            && out.contains("--assume-no-write request_irq"),
        "{out}"
    );
    let base = [
        "--init",
        "dev_init",
        "--entry",
        "dev_irq:*",
        "--entry",
        "dev_read",
    ];
    let mut args = base.to_vec();
    args.push("d.c");
    let (doc, _) = json_in(dir.path(), &args);
    assert_eq!(status_of(&doc, "dev.magic == 7"), "may-fail", "{doc}");
    let mut args = base.to_vec();
    args.extend([
        "--assume-no-write",
        "request_irq",
        "--assume-no-write",
        "nope",
        // `dev.count` races between the handler and the reader: the assertion is the point.
        "--check",
        "assert",
        "d.c",
    ]);
    let (doc, code) = json_in(dir.path(), &args);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(status_of(&doc, "dev.magic == 7"), "proved", "{doc}");
    let notes = doc["notes"].to_string();
    assert!(
        notes.contains("assumed (--assume-no-write)")
            && notes.contains("names no function")
            && notes.contains("nope"),
        "{notes}"
    );
}
