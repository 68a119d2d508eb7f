//! How much the explorer of `watts confirm` saves: on small programs where it matters (the
//! paper's flag/data example, writers of the same value, a racy counter), the executions of
//! the naive enumeration of every interleaving, the executions of the cached and reduced
//! searches, the maximal traces of the reads-from and RVF searches (CAV'21), and the reads-from
//! and reads-value-from classes among the naive executions (which also tell apart where
//! `main`'s exit falls, so they exceed what those searches need). Run with
//! `cargo bench --bench explore`; under `cargo test` it runs the smallest program only.

use std::fmt::Write as _;
use std::time::{Duration, Instant};
use watts::explore::search::{explore, Budget, Strategy};
use watts::explore::{Interp, InterpOptions};

/// `n` threads that each write `x = 1` (the same value), and a reader.
fn same_value_writers(n: usize) -> String {
    let mut c = String::from("#include <assert.h>\n#include <pthread.h>\nint x;\n");
    c.push_str("void *w(void *a) { (void)a; x = 1; return 0; }\n");
    c.push_str("void *r(void *a) { (void)a; int v = x; assert(v <= 1); return 0; }\n");
    c.push_str("int main(void) {\n  pthread_t t[8];\n");
    for i in 0..n {
        let _ = writeln!(c, "  pthread_create(&t[{i}], 0, w, 0);");
    }
    let _ = writeln!(c, "  pthread_create(&t[{n}], 0, r, 0);\n  return 0;\n}}");
    c
}

const FLAG_DATA: &str = r#"#include <assert.h>
#include <pthread.h>
int x, flag;
void *t1(void *a) { (void)a; x = 4; x = 5; flag = 1; return 0; }
void *t2(void *a) { (void)a; if (flag) { int v = x; assert(v == 5); } return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }
"#;

const RACY_COUNTER: &str = r#"#include <assert.h>
#include <pthread.h>
int count;
void *inc(void *a) { (void)a; int c = count; count = c + 1; return 0; }
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, inc, 0);
  for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
  assert(count == 3);
  return 0;
}
"#;

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let mut programs: Vec<(String, String)> =
        vec![("flag-data (FSE'16 fig. 1)".into(), FLAG_DATA.into())];
    if bench {
        programs.push(("racy counter, 3 threads".into(), RACY_COUNTER.into()));
        for n in [2, 3, 4, 5] {
            programs.push((
                format!("{n} writers of x = 1, 1 reader"),
                same_value_writers(n),
            ));
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    println!(
        "{:<34} {:>10} {:>9} {:>9} {:>10} {:>5} {:>6} {:>5} {:>10} {:>10} {:>8}",
        "program",
        "naive",
        "cached",
        "reduced",
        "reads-from",
        "RVF",
        "rf cl",
        "rvf cl",
        "naive_ms",
        "reduced_ms",
        "rvf_ms"
    );
    for (i, (name, text)) in programs.iter().enumerate() {
        let path = dir.path().join(format!("p{i}.c"));
        std::fs::write(&path, text).expect("write");
        let config = watts::Config::new(vec![path]);
        let program = watts::load_program(&config).expect("compile");
        let interp = Interp::new(&program, InterpOptions::default()).expect("interpreter");
        let budget = Budget {
            classes: true,
            deadline: Some(Instant::now() + Duration::from_secs(120)),
            ..Budget::default()
        };
        let t0 = Instant::now();
        let naive = explore(&interp, Strategy::Naive, budget, None);
        let naive_ms = t0.elapsed().as_secs_f64() * 1e3;
        let t1 = Instant::now();
        let cached = explore(&interp, Strategy::Cached, Budget::default(), None);
        let cached_ms = t1.elapsed().as_secs_f64() * 1e3;
        let t2 = Instant::now();
        let reduced = explore(&interp, Strategy::Reduced, Budget::default(), None);
        let reduced_ms = t2.elapsed().as_secs_f64() * 1e3;
        let reads_from = explore(&interp, Strategy::ReadsFrom, Budget::default(), None);
        let t3 = Instant::now();
        let rvf_search = explore(&interp, Strategy::Rvf, Budget::default(), None);
        let rvf_ms = t3.elapsed().as_secs_f64() * 1e3;
        let (rf, rvf) = naive.classes.unwrap_or_default();
        assert!(rvf <= rf, "{name}: more RVF than RF classes");
        assert!(
            rvf_search.executions <= reads_from.executions,
            "{name}: the RVF search explored more than the reads-from search"
        );
        if naive.complete {
            for other in [&cached, &reduced, &reads_from, &rvf_search] {
                assert_eq!(
                    naive.violations.keys().collect::<Vec<_>>(),
                    other.violations.keys().collect::<Vec<_>>(),
                    "{name}: the searches disagree"
                );
            }
        }
        let note = if naive.complete {
            ""
        } else {
            "  (naive budget hit)"
        };
        let _ = cached_ms;
        println!(
            "{name:<34} {:>10} {:>9} {:>9} {:>10} {:>5} {rf:>6} {rvf:>5} {naive_ms:>10.1} {reduced_ms:>10.1} {rvf_ms:>8.1}{note}",
            naive.executions,
            cached.executions,
            reduced.executions,
            reads_from.executions,
            rvf_search.executions,
        );
    }
}
