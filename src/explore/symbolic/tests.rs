//! The symbolic search on the programs of `tests/corpus/15-inputs` (bugs that need input
//! values outside the candidate set together with an interleaving), its pieces (SMT text,
//! expression evaluation, the initial-value case of Φ_dc), and the random-input baseline.

use super::*;
use crate::config::Config as Cfg;
use crate::explore::{search, InterpOptions, Loc};
use crate::ir::Program;
use trace::{Event, EventKind, ThreadTrace};

fn compile(src: &str) -> Program {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.c");
    std::fs::write(&path, src).expect("write");
    crate::frontend::load(&Cfg::new(vec![path])).unwrap_or_else(|e| panic!("{e}"))
}

/// Whether z3 runs here; without it a test checks nothing, unless tools are required
/// (`WATTS_REQUIRE_TOOLS` or `CI` set, as `.ci/run` runs): then it fails.
fn z3() -> bool {
    match Z3::locate() {
        Ok(_) => true,
        Err(e) => {
            let required = ["WATTS_REQUIRE_TOOLS", "CI"].iter().any(|name| {
                std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
            });
            assert!(!required, "z3 is missing, and this run requires it: {e}");
            eprintln!("skipped: {e}");
            false
        }
    }
}

fn interp(p: &Program) -> Interp<'_> {
    Interp::new(
        p,
        InterpOptions {
            bound: 1024,
            ..InterpOptions::default()
        },
    )
    .expect("main")
}

fn config(max_runs: u64) -> SymbolicConfig {
    SymbolicConfig {
        max_runs,
        deadline: Some(Instant::now() + Duration::from_secs(120)),
        ..SymbolicConfig::default()
    }
}

/// The symbolic search violates the program's only assertion within `max_runs` runs, and the
/// violation replays with its inputs forced.
fn finds(src: &str, max_runs: u64) -> Stats {
    let p = compile(src);
    let it = interp(&p);
    let (out, stats) = explore(&it, &config(max_runs), None);
    let v = out
        .violations
        .values()
        .next()
        .unwrap_or_else(|| panic!("no violation in {stats:?}: {:?}", out.unsupported));
    let replayed = crate::explore::replay(&p, v);
    assert!(
        matches!(replayed, Ok(crate::explore::Replayed::Fails { .. })),
        "{replayed:?}"
    );
    assert_eq!(v.bound, 1024);
    stats
}

const LINEAR: &str = include_str!("../../../tests/corpus/15-inputs/01-linear-input.c");
const FIGURE1: &str = include_str!("../../../tests/corpus/15-inputs/02-mpc-figure1.c");
const M0: &str = include_str!("../../../tests/corpus/15-inputs/03-mpc-m0.c");
const LOOP: &str = include_str!("../../../tests/corpus/15-inputs/04-loop-bound.c");
const HOLDS: &str = include_str!("../../../tests/corpus/15-inputs/05-holds.c");

#[test]
fn finds_an_input_that_a_linear_condition_needs() {
    if !z3() {
        return;
    }
    let s = finds(LINEAR, 20);
    assert!(s.runs <= 5, "{s:?}");
}

#[test]
fn random_inputs_do_not_find_it_with_the_same_budget() {
    let p = compile(LINEAR);
    let it = interp(&p);
    let (out, stats) = random_search(&it, 20, None, 7, None);
    assert_eq!(stats.runs, 20);
    assert!(out.violations.is_empty());
    // Nor the candidate values of the exhaustive searches.
    let walks = search::Budget {
        random_walks: 200,
        executions: 0,
        ..search::Budget::default()
    };
    let out = search::explore(&it, search::Strategy::Reduced, walks, None);
    assert!(out.violations.is_empty());
}

#[test]
fn finds_the_error_of_figure_1_of_the_paper() {
    if !z3() {
        return;
    }
    let s = finds(FIGURE1, 20);
    assert!(s.runs <= 5, "{s:?}");
}

#[test]
fn finds_the_crash_of_m0() {
    if !z3() {
        return;
    }
    let s = finds(M0, 200);
    assert!(s.first_witness.is_some_and(|(r, _)| r <= 40), "{s:?}");
}

#[test]
fn finds_a_loop_bound_chosen_by_input() {
    if !z3() {
        return;
    }
    let s = finds(LOOP, 200);
    assert!(s.first_witness.is_some_and(|(r, _)| r <= 60), "{s:?}");
}

#[test]
fn finds_nothing_where_the_assertion_holds() {
    if !z3() {
        return;
    }
    let p = compile(HOLDS);
    let it = interp(&p);
    let (out, stats) = explore(&it, &config(200), None);
    assert!(out.violations.is_empty(), "{:?}", out.violations);
    assert!(!out.complete);
    assert!(stats.runs > 1, "{stats:?}");
}

#[test]
fn a_read_may_take_the_initial_value() {
    if !z3() {
        return;
    }
    let p = compile(
        "#include <assert.h>\n#include <pthread.h>\nint x = 7;\n\
         void *w(void *a) { (void)a; x = 1; return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int v = x;\n\
         assert(v != 7); return 0; }",
    );
    let it = interp(&p);
    // The first run reads 1; only the initial value 7 fails the assertion.
    let (out, stats) = explore_with(&it, &config(10), None, &mut Newest);
    assert_eq!(out.violations.len(), 1, "{stats:?}");
    assert_eq!(stats.runs, 2, "{stats:?}");
    assert_eq!(stats.deviations, 0, "{stats:?}");
}

#[test]
fn smt_text_parses_and_solves_in_z3() {
    if !z3() {
        return;
    }
    let x = expr::var(expr::Sym::Input { tid: 0, n: 0 }, 32);
    let three = expr::konst(3, 32);
    let e = expr::binop(
        crate::ir::BinOp::Add,
        expr::binop(crate::ir::BinOp::Mul, x.clone(), three, 32),
        expr::konst(7, 32),
        32,
    );
    let c = expr::compare(crate::ir::CmpPred::Eq, e.clone(), expr::konst(1000, 32));
    let small = expr::compare(crate::ir::CmpPred::Slt, x, expr::konst(1000, 32));
    let mut w = smt::Writer::default();
    let a = w.condition(&c, true);
    let b = w.condition(&small, true);
    let script = format!(
        "{}(assert {a})\n(assert {b})\n(check-sat)\n(get-value (in_0_0))\n",
        w.prelude()
    );
    let z = Z3::locate().expect("z3");
    match z.solve(&script, Duration::from_secs(10)) {
        Answer::Sat(m) => {
            let Some((_, Val::Bv(v))) = m.first() else {
                panic!("{m:?}")
            };
            // The expression agrees with the model.
            assert_eq!(e.eval(&|_| *v), 1000);
            assert_eq!(*v, 331);
        }
        other => panic!("{other:?} for\n{script}"),
    }
    // A contradiction is unsat.
    let script = format!(
        "{}(assert {a})\n(assert {})\n(check-sat)\n",
        w.prelude(),
        w.condition(&c, false)
    );
    assert_eq!(z.solve(&script, Duration::from_secs(10)), Answer::Unsat);
    // Every query over a real trace is well formed (sat or unsat, never an error).
    let p = compile(M0);
    let it = interp(&p);
    let mut out = SearchResult::default();
    let mut stats = Stats::default();
    let trace = run(
        &it,
        Inputs::new(),
        &[],
        &mut Newest,
        None,
        &mut out,
        &mut stats,
    )
    .unwrap();
    let index = Index::new(&trace);
    let mut n = 0;
    for (t, th) in trace.threads.iter().enumerate() {
        for j in 0..th.branches.len() {
            let mut prefix = paths::full(&trace);
            prefix.cuts[t] = Cut {
                keep: j,
                flip: true,
            };
            let q = encode::encode(&trace, &index, &prefix, 5000);
            let a = z.solve(&q.script, Duration::from_secs(10));
            assert!(!matches!(a, Answer::Unknown(_)), "{a:?} for\n{}", q.script);
            n += 1;
        }
    }
    assert!(n > 0);
}

#[test]
fn a_missing_solver_is_reported_not_a_panic() {
    assert!(Z3::at("/nonexistent/z3").is_err());
}

#[test]
fn model_values_parse() {
    let a = solver::parse_answer("sat\n((o1 3)\n (o2 (- 4))\n (in_0_0 #x0000014b)\n (b #b1))\n");
    assert_eq!(
        a,
        Answer::Sat(vec![
            ("o1".into(), Val::Int(3)),
            ("o2".into(), Val::Int(-4)),
            ("in_0_0".into(), Val::Bv(331)),
            ("b".into(), Val::Bv(1)),
        ])
    );
    assert_eq!(
        solver::parse_answer("unsat\n(error \"no model\")\n"),
        Answer::Unsat
    );
    assert!(matches!(
        solver::parse_answer("unknown\n"),
        Answer::Unknown(_)
    ));
}

/// 100 threads race on one counter; the assertion fails when two increments interleave.
const MANY_THREADS: &str = r#"
#include <pthread.h>
#include <assert.h>
int count;
void *inc(void *a) { count = count + 1; return 0; }
int main(void) {
    pthread_t t[100];
    for (int i = 0; i < 100; i++) pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < 100; i++) pthread_join(t[i], 0);
    assert(count == 100);
    return 0;
}
"#;

#[test]
fn the_size_limits_count_threads_events_and_read_from_terms() {
    let mut t = Trace {
        threads: vec![ThreadTrace::default(); MAX_THREADS],
        ..Trace::default()
    };
    assert_eq!(too_large(&t), None);
    t.threads.push(ThreadTrace::default());
    assert!(too_large(&t).is_some_and(|why| why.contains("threads")));
    // One location read 10 times and written 300 times: 10 * 300^2 = 900,000 terms.
    let loc = Loc {
        object: 1,
        offset: 0,
        size: 4,
    };
    let mut t = Trace::default();
    let read = || Event {
        tid: 0,
        kind: EventKind::Read {
            loc,
            bits: 32,
            value: 0,
        },
    };
    let write = || Event {
        tid: 0,
        kind: EventKind::Write { loc, value: None },
    };
    t.events = (0..10)
        .map(|_| read())
        .chain((0..300).map(|_| write()))
        .collect();
    assert_eq!(encode::dc_terms(&t), 900_000);
    assert!(too_large(&t).is_some_and(|why| why.contains("read-from terms")));
    t.events.truncate(10 + 100);
    assert_eq!(encode::dc_terms(&t), 100_000);
    assert_eq!(too_large(&t), None);
}

#[test]
fn a_trace_too_large_to_solve_over_is_run_not_expanded_and_the_deadline_holds() {
    if !z3() {
        return;
    }
    let p = compile(MANY_THREADS);
    let it = interp(&p);
    let t0 = Instant::now();
    let config = SymbolicConfig {
        deadline: Some(t0 + Duration::from_secs(2)),
        max_runs: u64::MAX,
        ..SymbolicConfig::default()
    };
    let (out, stats) = explore(&it, &config, None);
    // Every run has 101 threads: none is solved over, the runs go on until the deadline.
    assert!(stats.too_large >= 1, "{stats:?}");
    assert_eq!(stats.queries, 0, "{stats:?}");
    assert_eq!(stats.too_large, stats.runs, "{stats:?}");
    assert!(t0.elapsed() < Duration::from_secs(4), "{:?}", t0.elapsed());
    assert!(!out.complete);
}
