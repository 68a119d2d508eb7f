//! The interpreter on small C programs compiled by the real front end, driven by simple
//! schedulers and by a brute-force search over every schedule.

use super::inputs::input_candidates;
use super::*;
use crate::config::Config;

fn compile(src: &str) -> Program {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.c");
    std::fs::write(&path, src).expect("write");
    crate::frontend::load(&Config::new(vec![path])).unwrap_or_else(|e| panic!("{e}"))
}

const HEADER: &str = "#include <pthread.h>\n#include <assert.h>\n#include <string.h>\n\
    #include <stdlib.h>\n\
    extern int __VERIFIER_nondet_int(void);\nextern _Bool __VERIFIER_nondet_bool(void);\n";

fn program(body: &str) -> Program {
    compile(&format!("{HEADER}{body}"))
}

/// Runs one execution, choosing the thread with `pick` and alternative 0.
fn run(interp: &Interp, pick: impl Fn(&[Tid]) -> Tid) -> (Status, Vec<StepInfo>) {
    let mut s = interp.initial();
    let mut trace = Vec::new();
    while interp.status(&s) == Status::Running {
        let enabled = interp.enabled(&s);
        assert!(!enabled.is_empty(), "running without enabled threads");
        trace.push(interp.step(&mut s, pick(&enabled), 0));
        assert!(trace.len() < 100_000, "runaway execution");
    }
    assert!(interp.enabled(&s).is_empty());
    (interp.status(&s), trace)
}

fn lowest(e: &[Tid]) -> Tid {
    e[0]
}

fn highest(e: &[Tid]) -> Tid {
    *e.last().unwrap()
}

/// Every final status of every schedule and input, with one trace of each.
fn explore(interp: &Interp) -> Vec<(Status, Vec<StepInfo>)> {
    fn go(
        interp: &Interp,
        s: &State,
        trace: &mut Vec<StepInfo>,
        out: &mut Vec<(Status, Vec<StepInfo>)>,
        budget: &mut u32,
    ) {
        *budget -= 1;
        assert!(*budget > 0, "too many schedules");
        let status = interp.status(s);
        if status != Status::Running {
            if !out.iter().any(|(st, _)| *st == status) {
                out.push((status, trace.clone()));
            }
            return;
        }
        for t in interp.enabled(s) {
            for alt in 0..interp.alternatives(s, t) {
                let mut next = s.clone();
                trace.push(interp.step(&mut next, t, alt));
                go(interp, &next, trace, out, budget);
                trace.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(
        interp,
        &interp.initial(),
        &mut Vec::new(),
        &mut out,
        &mut 200_000,
    );
    out
}

fn statuses(all: &[(Status, Vec<StepInfo>)]) -> Vec<Status> {
    all.iter().map(|(s, _)| s.clone()).collect()
}

fn violated(all: &[(Status, Vec<StepInfo>)]) -> bool {
    all.iter().any(|(s, _)| matches!(s, Status::Violated(_)))
}

fn interp(p: &Program) -> Interp<'_> {
    Interp::new(p, InterpOptions::default()).expect("main")
}

#[test]
fn sequential_code_runs_to_done() {
    let p = program(
        "struct P { int x; long y; char name[8]; };\n\
         int g[3] = {1, 2, 3};\n\
         int sq(int v) { return v * v; }\n\
         int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }\n\
         int main(void) {\n\
           int a[3];\n\
           for (int i = 0; i < 3; i++) a[i] = sq(i + 1);\n\
           struct P p = {5, -7, \"ab\"}; struct P q;\n\
           memcpy(&q, &p, sizeof p);\n\
           int *pa = &a[1];\n\
           assert(sum(a, 3) == 14);\n\
           assert(q.y == -7 && q.name[1] == 'b' && q.name[2] == 0);\n\
           assert(*pa == 4);\n\
           assert(sum(g, 3) == 6);\n\
           unsigned u = 0; u -= 1; assert(u == 4294967295u);\n\
           int m = -7; assert(m / 2 == -3 && m % 2 == -1 && (m >> 1) == -4);\n\
           int big = 300; assert((unsigned char)big == 44 && (signed char)big == 44);\n\
           int *h = malloc(4 * sizeof(int)); h[3] = 9; int *z = calloc(2, sizeof(int));\n\
           assert(h[3] + z[1] == 9); free(h);\n\
           struct P *pp = &p; pp->x += 1; assert(p.x == 6);\n\
           return 0;\n\
         }\n",
    );
    let i = interp(&p);
    let (status, trace) = run(&i, lowest);
    assert_eq!(status, Status::Done, "{trace:?}");
    // The heap accesses are shared memory: visible steps.
    assert!(
        trace
            .iter()
            .any(|s| matches!(&s.kind, StepKind::Write { loc, value } if loc.starts_with("heap@t.c:") && loc.ends_with("+12") && value == "9")),
        "{trace:?}"
    );
    // The same program with a false assertion is violated.
    let p =
        program("int main(void) { int a[2] = {3, 4}; int *q = a; assert(q[1] == 3); return 0; }\n");
    let (status, _) = run(&interp(&p), lowest);
    assert_eq!(status, Status::Violated(crate::ir::AssertId(0)));
}

#[test]
fn a_racy_increment_loses_an_update_in_some_schedule() {
    let p = program(
        "int x;\n\
         void *inc(void *a) { int v = x; x = v + 1; return 0; }\n\
         int main(void) { pthread_t t1, t2;\n\
           pthread_create(&t1, 0, inc, 0); pthread_create(&t2, 0, inc, 0);\n\
           pthread_join(t1, 0); pthread_join(t2, 0);\n\
           assert(x == 2); return 0; }\n",
    );
    let i = interp(&p);
    assert_eq!(run(&i, lowest).0, Status::Done);
    let all = explore(&i);
    assert!(violated(&all), "{:?}", statuses(&all));
    assert!(all.iter().any(|(s, _)| *s == Status::Done));
    // The failing schedule interleaves the two loads before the stores.
    let (_, trace) = all
        .iter()
        .find(|(s, _)| matches!(s, Status::Violated(_)))
        .unwrap();
    let reads = trace
        .iter()
        .filter(|s| matches!(&s.kind, StepKind::Read { loc, value } if loc == "x" && value == "0"))
        .count();
    assert_eq!(reads, 2, "{trace:?}");
    // Names of threads: the k-th thread of one entry.
    let mut s = i.initial();
    while i.status(&s) == Status::Running && s.threads.len() < 3 {
        i.step(&mut s, 0, 0);
    }
    assert_eq!(i.thread_name(&s, 0), "main");
    assert_eq!(i.thread_name(&s, 1), "inc");
    assert_eq!(i.thread_name(&s, 2), "inc#2");
}

#[test]
fn a_mutex_protected_increment_is_never_violated() {
    let p = program(
        "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *inc(void *a) { pthread_mutex_lock(&m); int v = x; x = v + 1; pthread_mutex_unlock(&m); return 0; }\n\
         int main(void) { pthread_t t1, t2;\n\
           pthread_create(&t1, 0, inc, 0); pthread_create(&t2, 0, inc, 0);\n\
           pthread_join(t1, 0); pthread_join(t2, 0);\n\
           assert(x == 2); return 0; }\n",
    );
    let all = explore(&interp(&p));
    assert_eq!(statuses(&all), vec![Status::Done]);
    let (_, trace) = &all[0];
    assert!(trace.iter().any(|s| s.kind == StepKind::Lock("m".into())));
    assert!(trace.iter().any(|s| s.kind == StepKind::Unlock("m".into())));
}

#[test]
fn join_waits_for_the_thread_and_returns_its_result() {
    let p = program(
        "int x; int arr[4];\n\
         void *w(void *a) { long id = (long)a; x = 1; arr[id] = 5; return (void *)(id + 40); }\n\
         int main(void) { pthread_t t; void *r; long two = 2;\n\
           pthread_create(&t, 0, w, (void *)two);\n\
           pthread_join(t, &r);\n\
           assert(x == 1 && arr[2] == 5 && (long)r == 42); return 0; }\n",
    );
    let i = interp(&p);
    let all = explore(&i);
    assert_eq!(statuses(&all), vec![Status::Done]);
    // Main, stopped at the join, is not enabled until the child finished.
    let mut s = i.initial();
    i.step(&mut s, 0, 0); // start: up to pthread_create
    let spawn = i.step(&mut s, 0, 0);
    assert_eq!(
        spawn.kind,
        StepKind::Spawn {
            child: 1,
            entry: "w".into()
        }
    );
    assert_eq!(i.enabled(&s), vec![1]);
    let (_, trace) = run(&i, highest);
    assert!(trace.iter().any(
        |s| matches!(&s.kind, StepKind::Write { loc, value } if loc == "arr[2]" && value == "5")
    ));
    assert!(trace.iter().any(|s| s.kind == StepKind::Join(1)));
}

/// C11: `mtx_trylock` of a held mutex returns `thrd_busy` (1), not `EBUSY`; success is
/// `thrd_success` (0); `thrd_join` writes the thread's `int` result, 4 bytes.
#[test]
fn c11_trylock_fails_with_thrd_busy_and_join_writes_an_int() {
    let p = program(
        "#include <threads.h>\n\
         mtx_t m; int x;\n\
         int w(void *a) { (void)a; mtx_lock(&m); x = 1; mtx_unlock(&m); return 7; }\n\
         int main(void) { thrd_t t; int res[2] = {0, 5}; mtx_init(&m, mtx_plain);\n\
           thrd_create(&t, w, 0);\n\
           int r = mtx_trylock(&m);\n\
           if (r == thrd_success) mtx_unlock(&m);\n\
           assert(r == thrd_success || r == thrd_busy);\n\
           thrd_join(t, res);\n\
           assert(res[0] == 7 && res[1] == 5);\n\
           assert(r == thrd_success);\n\
           return 0; }\n",
    );
    let i = interp(&p);
    assert_eq!(run(&i, lowest).0, Status::Done);
    let all = explore(&i);
    let violated: Vec<_> = (all.iter())
        .filter_map(|(s, _)| match s {
            Status::Violated(a) => Some(*a),
            _ => None,
        })
        .collect();
    // Only the last assertion fails, in the schedules where the worker held the mutex.
    assert!(!violated.is_empty());
    let last = p.asserts.len() - 1;
    assert!(violated.iter().all(|a| a.index() == last), "{violated:?}");
}

#[test]
fn trylock_fails_when_the_lock_is_held() {
    let p = program(
        "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int x;\n\
         void *w(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, w, 0);\n\
           int r = pthread_mutex_trylock(&m);\n\
           if (r == 0) pthread_mutex_unlock(&m);\n\
           assert(r == 0);\n\
           pthread_join(t, 0); return 0; }\n",
    );
    let i = interp(&p);
    assert_eq!(run(&i, lowest).0, Status::Done);
    let all = explore(&i);
    let (_, trace) = all
        .iter()
        .find(|(s, _)| matches!(s, Status::Violated(_)))
        .expect("EBUSY in some schedule");
    assert!(trace
        .iter()
        .any(|s| s.kind == StepKind::TryLockFailed("m".into())));
}

#[test]
fn cond_wait_releases_and_retakes_the_mutex() {
    let p = program(
        "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
         int ready, data;\n\
         void *producer(void *a) { pthread_mutex_lock(&m); data = 7; ready = 1;\n\
           pthread_cond_signal(&c); pthread_mutex_unlock(&m); return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, producer, 0);\n\
           pthread_mutex_lock(&m);\n\
           while (!ready) pthread_cond_wait(&c, &m);\n\
           assert(data == 7);\n\
           pthread_mutex_unlock(&m); pthread_join(t, 0); return 0; }\n",
    );
    let all = explore(&interp(&p));
    let st = statuses(&all);
    assert!(!violated(&all), "{st:?}");
    assert!(st.contains(&Status::Done), "{st:?}");
}

#[test]
fn nondet_inputs_have_alternatives() {
    let p = program(
        "int main(void) { int v = __VERIFIER_nondet_int(); _Bool b = __VERIFIER_nondet_bool();\n\
           if (b && v == 42) assert(0);\n\
           return 0; }\n",
    );
    let i = interp(&p);
    let mut s = i.initial();
    i.step(&mut s, 0, 0);
    let n = i.alternatives(&s, 0);
    assert!((3..=MAX_INPUTS).contains(&n), "{n}");
    let inputs: Vec<StepKind> = (0..n)
        .map(|alt| i.step(&mut s.clone(), 0, alt).kind)
        .collect();
    let values: Vec<i128> = (inputs.iter())
        .filter_map(|k| match k {
            StepKind::Input(v) => Some(v.value),
            _ => None,
        })
        .collect();
    assert_eq!(values.len(), inputs.len(), "{inputs:?}");
    for v in [0, 1, -1, 41, 42, 43] {
        assert!(values.contains(&v), "{v}: {inputs:?}");
    }
    assert_eq!(values[..3], [0, 1, -1]);
    let all = explore(&i);
    assert!(violated(&all));
    assert!(all.iter().any(|(s, _)| *s == Status::Done));
    assert_eq!(input_candidates(&[], &[300], 8), vec![0, 1, -1]);
    assert_eq!(
        input_candidates(&[], &[200], 8),
        vec![0, 1, -1, 199, 200, 201]
    );
    // Compared constants come before the others, whatever their magnitude.
    let c = input_candidates(&[20], &[2, 3, 4, 5, 6, 7], 32);
    assert_eq!(c[..6], [0, 1, -1, 19, 20, 21]);
}

#[test]
fn a_loop_past_the_bound_is_cut() {
    let p = program("int x; int main(void) { for (int i = 0; i < 10; i++) x++; return 0; }\n");
    let i = Interp::new(
        &p,
        InterpOptions {
            bound: 3,
            max_steps: 200_000,
            exact: false,
            thread_loops: false,
        },
    )
    .unwrap();
    assert_eq!(run(&i, lowest).0, Status::Cut);
    let i = Interp::new(
        &p,
        InterpOptions {
            bound: 10,
            max_steps: 200_000,
            exact: false,
            thread_loops: false,
        },
    )
    .unwrap();
    assert_eq!(run(&i, lowest).0, Status::Done);
    let i = Interp::new(
        &p,
        InterpOptions {
            bound: 10,
            max_steps: 20,
            exact: false,
            thread_loops: false,
        },
    )
    .unwrap();
    assert_eq!(run(&i, lowest).0, Status::Cut);
}

#[test]
fn a_thread_past_the_bound_stops_and_the_others_go_on() {
    let p = program(
        "int x;\n\
         void *w(void *a) { int v = x; x = v + 1; assert(v != 2); return 0; }\n\
         int main(void) { pthread_t t; while (1) pthread_create(&t, 0, w, 0); }\n",
    );
    let i = interp(&p);
    // Main creates threads until its loop bound, then the threads run.
    let (status, trace) = run(&i, lowest);
    assert!(matches!(status, Status::Violated(_)), "{status:?}");
    let spawns = trace
        .iter()
        .filter(|s| matches!(s.kind, StepKind::Spawn { .. }))
        .count();
    assert_eq!(spawns, 4, "{trace:?}");
}

#[test]
fn other_threads_move_before_the_process_ends() {
    for end in ["return 0;", "exit(0);", "__VERIFIER_assume(0); return 0;"] {
        let p = program(&format!(
            "extern void __VERIFIER_assume(int);\nint x;\n\
             void *w(void *a) {{ assert(x == 0); return 0; }}\n\
             int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); x = 1; {end} }}\n"
        ));
        let all = explore(&interp(&p));
        assert!(violated(&all), "{end}: {:?}", statuses(&all));
    }
}

#[test]
fn unknown_functions_with_pointers_are_unsupported() {
    let p = program(
        "extern void mystery(int *p); extern void note(int);\n\
         int main(void) { int a = 0; note(3); mystery(&a); assert(a == 0); return 0; }\n",
    );
    let (status, _) = run(&interp(&p), lowest);
    assert!(
        matches!(&status, Status::Unsupported(m) if format!("{m:?}").contains("mystery")),
        "{status:?}"
    );
    // An unknown function's integer result is an input: its candidates are explored.
    let p = program(
        "extern int rnd(void);\n\
         int main(void) { int r = rnd(); int s = r * 0 + r; assert(s != 1); return 0; }\n",
    );
    let all = explore(&interp(&p));
    assert!(violated(&all), "{:?}", statuses(&all));
    // A string constant (read-only) may be handed over; a callback that is no harness entry
    // may not (the unknown function may call it).
    let p = program(
        "extern int reg(const char *name, void (*cb)(void));\n\
         static void cb(void) {}\n\
         int main(void) { int r = reg(\"dev\", 0); assert(r != 1); return reg(\"dev\", cb); }\n",
    );
    let all = explore(&interp(&p));
    assert!(violated(&all), "{:?}", statuses(&all));
    let (status, _) = run(&interp(&p), lowest);
    assert!(
        matches!(&status, Status::Unsupported(m) if format!("{m:?}").contains("reg")),
        "{status:?}"
    );
    let p = program("int main(void) { int z = 0; int *q = 0; if (z) return 1; return *q; }\n");
    let (status, _) = run(&interp(&p), lowest);
    assert!(
        matches!(&status, Status::Unsupported(m) if format!("{m:?}").contains("null")),
        "{status:?}"
    );
}

#[test]
fn verifier_atomic_functions_run_atomically() {
    let body = |atomic: &str| {
        format!(
            "int x;\n\
             void {atomic}inc(void) {{ int v = x; x = v + 1; }}\n\
             void *w(void *a) {{ {atomic}inc(); return 0; }}\n\
             int main(void) {{ pthread_t t1, t2;\n\
               pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0);\n\
               pthread_join(t1, 0); pthread_join(t2, 0);\n\
               assert(x == 2); return 0; }}\n"
        )
    };
    let p = program(&body("__VERIFIER_atomic_"));
    let all = explore(&interp(&p));
    assert_eq!(statuses(&all), vec![Status::Done]);
    assert!(all[0].1.iter().any(|s| s.kind == StepKind::AtomicBegin));
    let p = program(&body("plain_"));
    assert!(violated(&explore(&interp(&p))));
}

#[test]
fn a_lock_order_inversion_deadlocks() {
    let p = program(
        "pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;\n\
         void *w(void *x) { pthread_mutex_lock(&b); pthread_mutex_lock(&a);\n\
           pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, w, 0);\n\
           pthread_mutex_lock(&a); pthread_mutex_lock(&b);\n\
           pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); pthread_join(t, 0); return 0; }\n",
    );
    let st = statuses(&explore(&interp(&p)));
    assert!(
        st.contains(&Status::Deadlock) && st.contains(&Status::Done),
        "{st:?}"
    );
}

#[test]
fn no_main_is_an_error() {
    let p = compile("int f(void) { return 1; }\n");
    assert!(Interp::new(&p, InterpOptions::default()).is_err());
}

// ---- The reads-value-from and reads-from searches on C programs ----------------------------

/// Runs `strategy` on `p` to the end (no budget).
fn search(
    p: &Program,
    strategy: crate::explore::search::Strategy,
) -> crate::explore::search::SearchResult {
    use crate::explore::search::{explore, Budget};
    explore(&interp(p), strategy, Budget::default(), None)
}

/// The violated assertions of `out`, checked to replay.
fn violations(p: &Program, out: &crate::explore::search::SearchResult) -> Vec<crate::ir::AssertId> {
    let i = interp(p);
    for v in out.violations.values() {
        let (end, _) = crate::explore::search::replay(&i, &v.choices).expect("replays");
        assert_eq!(i.status(&end), Status::Violated(v.assertion));
    }
    out.violations.keys().copied().collect()
}

#[test]
fn rvf_explores_one_trace_when_every_read_sees_one_value() {
    use crate::explore::search::Strategy;
    // CAV'21 fig. 1 in spirit: each thread writes 1 then reads it back; whichever write a
    // read sees, it sees 1, and no read causally precedes another.
    let p = program(
        "int x;\n\
         void *w(void *a) { (void)a; x = 1; int v = x; assert(v == 1); return 0; }\n\
         int main(void) { pthread_t t[3];\n\
           for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, w, 0);\n\
           return 0; }\n",
    );
    let rvf = search(&p, Strategy::Rvf);
    let rf = search(&p, Strategy::ReadsFrom);
    assert!(rvf.exhaustive() && rf.exhaustive(), "{rvf:?} {rf:?}");
    assert_eq!(rvf.executions, 1, "{rvf:?}");
    assert!(rf.executions > 1, "{rf:?}");
    assert!(violations(&p, &rvf).is_empty() && violations(&p, &rf).is_empty());
}

#[test]
fn rvf_traces_stay_constant_with_more_writers_of_the_same_value() {
    use crate::explore::search::Strategy;
    // The creations are unrolled: a loop would hit the loop bound.
    let writers = |n: usize| {
        program(&format!(
            "int x;\n\
             void *w(void *a) {{ (void)a; x = 1; return 0; }}\n\
             void *r(void *a) {{ (void)a; int v = x; assert(v == 0); return 0; }}\n\
             int main(void) {{ pthread_t t;\n{}\
               pthread_create(&t, 0, r, 0); return 0; }}\n",
            "pthread_create(&t, 0, w, 0);\n".repeat(n)
        ))
    };
    let mut counts = Vec::new();
    for n in [2, 4, 6] {
        let p = writers(n);
        let rvf = search(&p, Strategy::Rvf);
        let rf = search(&p, Strategy::ReadsFrom);
        assert!(rvf.exhaustive() && rf.exhaustive());
        // The reader sees 1 (from some writer): the assertion fails in both.
        assert_eq!(violations(&p, &rvf).len(), 1);
        assert_eq!(violations(&p, &rf).len(), 1);
        counts.push((rvf.executions, rf.executions));
    }
    assert!(
        counts.iter().all(|&(rvf, _)| rvf == counts[0].0),
        "{counts:?}"
    );
    assert!(counts.windows(2).all(|w| w[1].1 > w[0].1), "{counts:?}");
}

#[test]
fn rvf_and_reads_from_find_what_every_interleaving_finds_with_locks() {
    use crate::explore::search::{explore, Budget, Strategy};
    let programs = [
        // A locked counter is never lost; an unlocked one is.
        "int c; pthread_mutex_t m;\n\
         void *inc(void *a) { (void)a; pthread_mutex_lock(&m); int v = c; c = v + 1;\n\
           pthread_mutex_unlock(&m); return 0; }\n\
         void *bad(void *a) { (void)a; int v = c; c = v + 1; return 0; }\n\
         int main(void) { pthread_t a, b, d; pthread_create(&a, 0, inc, 0);\n\
           pthread_create(&b, 0, inc, 0); pthread_create(&d, 0, bad, 0);\n\
           pthread_join(a, 0); pthread_join(b, 0); pthread_join(d, 0);\n\
           assert(c == 3); return 0; }\n",
        // A trylock that fails leaves the flag alone.
        "int flag; pthread_mutex_t m;\n\
         void *t(void *a) { (void)a; if (pthread_mutex_trylock(&m) == 0) { flag++;\n\
           pthread_mutex_unlock(&m); } return 0; }\n\
         int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0);\n\
           pthread_create(&b, 0, t, 0); pthread_join(a, 0); pthread_join(b, 0);\n\
           assert(flag == 2); return 0; }\n",
        // An input decides who writes.
        "int x;\n\
         void *t(void *a) { (void)a; if (__VERIFIER_nondet_int() == 3) x = 2; return 0; }\n\
         int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); int v = x;\n\
           assert(v != 2); pthread_join(a, 0); return 0; }\n",
    ];
    for src in programs {
        let p = program(src);
        let i = interp(&p);
        let naive = explore(&i, Strategy::Naive, Budget::default(), None);
        assert!(naive.complete);
        for strategy in [Strategy::ReadsFrom, Strategy::Rvf] {
            let out = search(&p, strategy);
            assert!(
                out.complete && out.unsupported.is_empty(),
                "{strategy:?}: {out:?}"
            );
            assert_eq!(
                violations(&p, &naive),
                violations(&p, &out),
                "{strategy:?}\n{src}"
            );
            assert!(out.executions <= naive.executions);
        }
    }
}

#[test]
fn rvf_gives_up_on_what_its_event_model_cannot_express() {
    use crate::explore::search::Strategy;
    let p = program(
        "int x;\n\
         void *t(void *a) { (void)a; __VERIFIER_atomic_begin(); x = 1; __VERIFIER_atomic_end();\n\
           return 0; }\n\
         int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); assert(x == 0); return 0; }\n",
    );
    let out = search(&p, Strategy::Rvf);
    assert!(
        out.unsupported.rvf_gave_up() && !out.exhaustive(),
        "{out:?}"
    );
}

#[test]
fn forced_inputs_have_one_alternative_and_take_the_forced_value() {
    let p = program(
        "int main(void) { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();\n\
         assert(!(a == 123457 && b == -99)); return 0; }",
    );
    let interp = Interp::new(&p, InterpOptions::default()).unwrap();
    // Without forcing, the candidates never contain these values.
    let (status, _) = run(&interp, lowest);
    assert_eq!(status, Status::Done);
    let forced: BTreeMap<(Tid, u32), i128> = [((0, 0), 123457), ((0, 1), -99)].into();
    let interp = interp.with_inputs(Arc::new(forced));
    let mut s = interp.initial();
    interp.step(&mut s, 0, 0);
    assert_eq!(interp.alternatives(&s, 0), 1);
    let (status, trace) = run(&interp, lowest);
    assert!(matches!(status, Status::Violated(_)), "{status:?}");
    let inputs: Vec<i128> = trace
        .iter()
        .filter_map(|s| match &s.kind {
            StepKind::Input(v) => Some(v.value),
            _ => None,
        })
        .collect();
    assert_eq!(inputs, vec![123457, -99]);
}

#[test]
fn the_concolic_shadow_agrees_with_the_concrete_run() {
    let p = program(
        "int x; int y;\n\
         void *w(void *a) { int i = __VERIFIER_nondet_int(); x = i * 3 + 1; y = 2; return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, w, 0);\n\
           int n = __VERIFIER_nondet_int(); int c = 0;\n\
           for (int k = 0; k < n && k < 5; k++) c += x;\n\
           if (c > 7) y = 1;\n\
           char s = (char)n; if (s == 3) y = 3;\n\
           pthread_join(t, 0); assert(x != 1000); return 0; }",
    );
    let base = Interp::new(&p, InterpOptions::default()).unwrap();
    for (seed, (i, n)) in [(0i128, 4i128), (7, 3), (333, 259), (-5, 0)]
        .iter()
        .enumerate()
    {
        let forced: BTreeMap<(Tid, u32), i128> = [((1, 0), *i), ((0, 0), *n)].into();
        let interp = base.with_inputs(Arc::new(forced)).concolic();
        let pick = move |e: &[Tid]| e[seed % e.len()];
        let mut s = interp.initial();
        while interp.status(&s) == Status::Running {
            let e = interp.enabled(&s);
            interp.step(&mut s, pick(&e), 0);
        }
        let trace = interp.trace(&s).expect("concolic");
        assert_eq!(trace.threads.len(), 2);
        let branches: usize = trace.threads.iter().map(|t| t.branches.len()).sum();
        assert!(branches > 0, "no symbolic branch recorded");
        let env = |sym| trace.value(sym);
        for th in &trace.threads {
            for b in &th.branches {
                assert_eq!(b.cond.eval(&env) != 0, b.taken, "{b:?}");
            }
        }
        for e in &trace.events {
            if let crate::explore::symbolic::trace::EventKind::Write { value: Some(v), .. } =
                &e.kind
            {
                // Every written value is consistent with what reads of it returned.
                let _ = v.eval(&env);
            }
        }
    }
}

/// Each thread has its own copy of a `__thread` variable, starting with the initialiser: no
/// schedule lets one thread see another's store, while an ordinary global shows it.
#[test]
fn thread_local_variables_have_one_copy_per_thread() {
    let p = program(
        "__thread int x = 3;\n\
         void *f(void *a) { (void)a; assert(x == 3); x = 4; assert(x == 4); return 0; }\n\
         int main(void) { pthread_t t, u; x = 9;\n\
           pthread_create(&t, 0, f, 0); pthread_create(&u, 0, f, 0);\n\
           assert(x == 9); pthread_join(t, 0); pthread_join(u, 0);\n\
           assert(x == 9); return 0; }",
    );
    assert!(p.globals.iter().any(|g| g.name == "x" && g.thread_local));
    let all = explore(&interp(&p));
    assert!(!violated(&all), "{:?}", statuses(&all));
    assert!(!statuses(&all)
        .iter()
        .any(|s| matches!(s, Status::Unsupported(_))));
    let shared = program(
        "int x = 3;\n\
         void *f(void *a) { (void)a; assert(x == 3); x = 4; return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return 0; }",
    );
    assert!(!violated(&explore(&interp(&shared))));
    let parent = program(
        "int x = 3;\n\
         void *f(void *a) { (void)a; assert(x == 3); return 0; }\n\
         int main(void) { pthread_t t; x = 9; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return 0; }",
    );
    assert!(violated(&explore(&interp(&parent))));
}

/// Issue 18, 4: an input is named after the variable a `__VERIFIER_nondet_*` result is
/// assigned to and shown in its C type, and shared memory values in the type of the memory.
#[test]
fn inputs_and_values_in_their_c_type() {
    let p = program(
        "extern unsigned char __VERIFIER_nondet_uchar(void);\n\
         unsigned int total; unsigned char bytes[2]; int plain;\n\
         int main(void) {\n\
           unsigned char b = __VERIFIER_nondet_uchar();\n\
           total = (unsigned int)-(int)b; bytes[1] = b; plain = -(int)b;\n\
           return 0; }\n",
    );
    let i = interp(&p);
    let mut s = i.initial();
    i.step(&mut s, 0, 0);
    let n = i.alternatives(&s, 0);
    // The alternative whose value is all ones (255 for an `unsigned char`).
    let (alt, input) = (0..n)
        .find_map(|alt| match i.step(&mut s.clone(), 0, alt).kind {
            StepKind::Input(v) if v.value == -1 => Some((alt, v)),
            _ => None,
        })
        .expect("the candidate -1");
    assert_eq!(input.name.as_deref(), Some("b"));
    assert_eq!(
        crate::report::words::step(&StepKind::Input(input)),
        "gets the input b = 255"
    );
    i.step(&mut s, 0, alt);
    let mut events = Vec::new();
    while i.status(&s) == Status::Running {
        let step = i.step(&mut s, 0, 0);
        events.push(crate::report::words::step(&step.kind));
    }
    for e in [
        "writes total = 4294967041",
        "writes bytes[1] = 255",
        "writes plain = -255",
    ] {
        assert!(events.iter().any(|x| x == e), "missing `{e}`: {events:?}");
    }
}

fn exact(p: &Program) -> Interp<'_> {
    let options = InterpOptions {
        bound: u32::MAX,
        max_steps: 5_000_000,
        exact: true,
        thread_loops: false,
    };
    Interp::new(p, options).expect("main")
}

#[test]
fn exact_mode_stops_a_local_spin_and_runs_a_long_loop_to_its_end() {
    // `main` read the flag once: its loop never ends, and the worker still runs.
    let p = program(
        "int flag, x;\n\
         void *w(void *a) { x = 1; return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int f = flag;\n\
           while (!f) {} assert(0); return 0; }\n",
    );
    let all = explore(&exact(&p));
    assert!(!violated(&all), "{:?}", statuses(&all));
    assert!(
        statuses(&all).iter().all(|s| *s == Status::Deadlock),
        "{:?}",
        statuses(&all)
    );
    // A loop of many rounds that ends is no spin: its states differ.
    let p = program(
        "int x;\n\
         int main(void) { int s = 0; for (int i = 0; i < 5000; i++) s += i & 1; x = s;\n\
           assert(x == 2499); return 0; }\n",
    );
    let all = explore(&exact(&p));
    assert_eq!(
        statuses(&all),
        vec![Status::Violated(crate::ir::AssertId(0))]
    );
}

#[test]
fn exact_mode_lets_malloc_fail_and_gives_up_where_confirm_restricts() {
    let p = program(
        "int *g;\n\
         int main(void) { g = malloc(4); assert(g != 0); return 0; }\n",
    );
    assert!(!violated(&explore(&interp(&p))));
    assert!(violated(&explore(&exact(&p))));
    for (src, why) in [
        ("int main(int argc, char **argv) { assert(argc == 1); return 0; }\n", "argc"),
        (
            "void *w(void *a) { return a; }\n\
             int main(void) { pthread_t t; int r = pthread_create(&t, 0, w, 0); assert(r == 0); return 0; }\n",
            "pthread_create",
        ),
        (
            "extern void f(void); int g;\n\
             int main(void) { g = 1; f(); assert(g == 1); return 0; }\n",
            "unknown function",
        ),
    ] {
        let p = program(src);
        let all = explore(&exact(&p));
        assert!(
            all.iter().any(|(s, _)| matches!(s, Status::Unsupported(w) if format!("{w:?}").contains(why))),
            "{src}: {:?}",
            statuses(&all)
        );
    }
}
