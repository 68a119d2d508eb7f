//! Benchmark of the interference modes on generated driver-like programs (FSE'16, section 7):
//! `main` initialises a device and creates N threads that call its entry points (writers, an
//! ioctl reader, a closer), guarded by flags. Prints the median wall time of each mode per size
//! and the ratio to flow-insensitive. Run with `cargo bench --bench drivers`; under `cargo test`
//! it only checks that one small program analyses in every mode.

use std::fmt::Write as _;
use std::time::{Duration, Instant};
use watts::{Config, Mode};

/// A driver with `threads` threads (at least 3).
fn driver(threads: usize) -> String {
    let mut c = String::from(
        "#include <assert.h>\n#include <pthread.h>\n\
         int lock_init, dev_open, expect_close, buf, closed;\n",
    );
    let writers = threads.saturating_sub(2).max(1);
    for w in 0..writers {
        let _ = write!(
            c,
            "static void *writer{w}(void *a) {{ (void)a;\n\
             \x20 assert(lock_init == 1);\n\
             \x20 int o = dev_open;\n\
             \x20 if (o) {{ buf = {v}; expect_close = 42; assert(dev_open == 1); }}\n\
             \x20 return 0; }}\n",
            v = w % 7
        );
    }
    c.push_str(
        "static void *ioctl_fn(void *a) { (void)a;\n\
         \x20 int e = expect_close; assert(e == 0 || e == 42);\n\
         \x20 int b = buf; assert(b >= 0 && b <= 6); return 0; }\n\
         static void *closer(void *a) { (void)a;\n\
         \x20 int e = expect_close; if (e == 42) closed = 1; return 0; }\n\
         int main(void) {\n\
         \x20 pthread_t t[256];\n\
         \x20 lock_init = 1; dev_open = 1;\n",
    );
    for w in 0..writers {
        let _ = writeln!(c, "  pthread_create(&t[{w}], 0, writer{w}, 0);");
    }
    let _ = writeln!(c, "  pthread_create(&t[{writers}], 0, ioctl_fn, 0);");
    let _ = writeln!(c, "  pthread_create(&t[{}], 0, closer, 0);", writers + 1);
    let _ = writeln!(
        c,
        "  for (int i = 0; i < {}; i++) pthread_join(t[i], 0);\n  return 0;\n}}",
        writers + 2
    );
    c
}

fn time_mode(program: &watts::ir::Program, config: &Config, runs: usize) -> (Duration, usize) {
    let mut times = Vec::new();
    let mut proved = 0;
    for _ in 0..runs {
        let t0 = Instant::now();
        let out = watts::analysis::analyze(program, config).expect("analysis");
        times.push(t0.elapsed());
        proved = out
            .verdicts
            .iter()
            .filter(|v| matches!(v.verdict, watts::analysis::AssertVerdict::Proved { .. }))
            .count();
    }
    times.sort();
    (times[times.len() / 2], proved)
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let sizes: &[usize] = if bench { &[10, 20, 40, 70] } else { &[4] };
    let runs = if bench { 3 } else { 1 };
    let dir = tempfile::tempdir().expect("tempdir");
    println!("threads  mode              median_ms  ratio  proved/asserts");
    for &n in sizes {
        let path = dir.path().join(format!("driver{n}.c"));
        std::fs::write(&path, driver(n)).expect("write");
        let mut config = Config::new(vec![path]);
        let program = watts::frontend::load(&config).expect("compile");
        let mut base = None;
        for mode in Mode::ALL {
            config.mode = mode;
            let (t, proved) = time_mode(&program, &config, runs);
            let ms = t.as_secs_f64() * 1e3;
            let b = *base.get_or_insert(ms);
            println!(
                "{n:7}  {:16}  {ms:9.1}  {:5.2}  {proved}/{}",
                mode.name(),
                ms / b.max(1e-9),
                program.asserts.len()
            );
        }
    }
}
