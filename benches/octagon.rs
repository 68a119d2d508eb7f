//! Benchmark of the octagon domain against intervals: the median analysis time of each domain
//! and their ratio on every corpus program, on generated driver-like programs (as in
//! `benches/drivers.rs`) and on one thread with 300 variables; the peak resident memory of each
//! octagon analysis (Linux: `VmHWM`, reset through `/proc/self/clear_refs` before each run).
//! Run with `cargo bench --bench octagon` (`-- --corpus-only`, `-- --generated-only`,
//! `-- --write-programs DIR` to keep the generated C files for profiling); under
//! `cargo test` it only checks that one small generated program analyses in both domains.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use watts::ir::Program;
use watts::{Config, DomainKind, Mode};

/// A driver-like program with `threads` threads: writers guarded by a flag, an ioctl reader that
/// copies a shared length and loops below it, and a closer.
fn driver(threads: usize) -> String {
    let mut c = String::from(
        "#include <assert.h>\n#include <pthread.h>\n\
         int lock_init, dev_open, expect_close, buf, closed, len;\n\
         int data[64];\n",
    );
    let writers = threads.saturating_sub(2).max(1);
    for w in 0..writers {
        let _ = write!(
            c,
            "static void *writer{w}(void *a) {{ (void)a;\n\
             \x20 assert(lock_init == 1);\n\
             \x20 int o = dev_open;\n\
             \x20 if (o) {{ buf = {v}; expect_close = 42; len = {l}; assert(dev_open == 1); }}\n\
             \x20 return 0; }}\n",
            v = w % 7,
            l = 1 + w % 60
        );
    }
    c.push_str(
        "static void *ioctl_fn(void *a) { (void)a;\n\
         \x20 int e = expect_close; assert(e == 0 || e == 42);\n\
         \x20 int n = len; if (n > 64) n = 64;\n\
         \x20 for (int i = 0; i < n; i++) { assert(i < n); data[i] = i; }\n\
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

/// One thread with `n` variables: half globals (memory cells), half locals (SSA), chained by
/// additions of constants and copies, a loop bounded by a loaded value, and branches.
fn wide(n: usize) -> String {
    let g = n / 2;
    let mut c = String::from("#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\n");
    for k in 0..g {
        let _ = writeln!(c, "int g{k};");
    }
    c.push_str("int bound;\nint main(void) {\n  bound = __VERIFIER_nondet_int();\n");
    c.push_str("  if (bound < 0 || bound > 1000) return 0;\n");
    for k in 0..(n - g) {
        let _ = writeln!(c, "  int l{k} = __VERIFIER_nondet_int();");
        let _ = writeln!(c, "  if (l{k} < -1000 || l{k} > 1000) return 0;");
    }
    for k in 0..g {
        let src = k % (n - g);
        let _ = writeln!(c, "  g{k} = l{src} + {k};");
    }
    c.push_str("  int n = bound;\n  for (int i = 0; i < n; i++) {\n");
    for k in 0..g {
        let _ = writeln!(
            c,
            "    if (__VERIFIER_nondet_int()) {{ int t = g{k}; g{k} = t + 1; assert(g{k} > t); }}"
        );
        if k % 10 == 0 {
            let _ = writeln!(c, "    assert(i < n);");
        }
    }
    c.push_str("  }\n");
    for k in 0..(n - g).min(50) {
        let _ = writeln!(c, "  int m{k} = l{k} + 5;\n  assert(m{k} > l{k});");
    }
    c.push_str("  return 0;\n}\n");
    c
}

fn clear_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Peak resident memory since the last `clear_peak`, in MB (0 when unknown).
fn peak_mb() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

struct Run {
    median: Duration,
    proved: usize,
    peak_mb: f64,
}

fn time_domain(program: &Program, config: &Config, runs: usize) -> Option<Run> {
    let mut times = Vec::new();
    let mut proved = 0;
    let mut peak: f64 = 0.0;
    for _ in 0..runs {
        clear_peak();
        let t0 = Instant::now();
        let out = watts::analysis::analyze(program, config).ok()?;
        times.push(t0.elapsed());
        peak = peak.max(peak_mb());
        proved = out.verdicts.iter().filter(|v| v.verdict.holds()).count();
    }
    times.sort();
    Some(Run {
        median: times[times.len() / 2],
        proved,
        peak_mb: peak,
    })
}

/// Compares the domains on one program; returns (interval ms, octagon ms, octagon peak MB).
fn compare(name: &str, config: &mut Config, program: &Program, runs: usize) -> (f64, f64, f64) {
    config.domain = DomainKind::Interval;
    let Some(i) = time_domain(program, config, runs) else {
        return (0.0, 0.0, 0.0);
    };
    config.domain = DomainKind::Octagon;
    let Some(o) = time_domain(program, config, runs) else {
        return (0.0, 0.0, 0.0);
    };
    let (ims, oms) = (i.median.as_secs_f64() * 1e3, o.median.as_secs_f64() * 1e3);
    println!(
        "{name:48} {ims:9.2} {oms:9.2} {:6.2} {:>5}/{:<5} {:7} {:8.1} {:8.1}",
        oms / ims.max(1e-6),
        i.proved,
        o.proved,
        program.asserts.len(),
        i.peak_mb,
        o.peak_mb
    );
    (ims, oms, o.peak_mb)
}

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "c") {
            out.push(p);
        }
    }
}

/// The clang arguments of a corpus file's `//PARAM: ... -- ARGS` lines.
fn clang_args(src: &str) -> Vec<String> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("//PARAM:"))
        .filter_map(|p| p.split_once("--").map(|(_, a)| a.to_string()))
        .flat_map(|a| a.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|a| !a.starts_with("--"))
        .collect()
}

fn header(title: &str) {
    println!("\n{title}");
    println!(
        "{:48} {:>9} {:>9} {:>6} {:>11} {:>7} {:>8} {:>8}",
        "program", "itv_ms", "oct_ms", "ratio", "proved i/o", "asserts", "itv_MB", "oct_MB"
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bench = args.iter().any(|a| a == "--bench");
    let corpus = !args.iter().any(|a| a == "--generated-only");
    let generated = !args.iter().any(|a| a == "--corpus-only");
    let runs = if bench { 5 } else { 1 };
    let dir = tempfile::tempdir().expect("tempdir");
    let mode = Mode::Optimized;

    if generated {
        header(&format!("generated programs, mode {}", mode.name()));
        let mut progs: Vec<(String, String)> = Vec::new();
        let sizes: &[usize] = if bench { &[10, 20, 40] } else { &[4] };
        for &n in sizes {
            progs.push((format!("driver, {n} threads"), driver(n)));
        }
        let widths: &[usize] = if bench { &[100, 300] } else { &[20] };
        for &n in widths {
            progs.push((format!("one thread, {n} variables"), wide(n)));
        }
        let keep = args
            .iter()
            .position(|a| a == "--write-programs")
            .and_then(|i| args.get(i + 1))
            .map(PathBuf::from);
        for (k, (name, src)) in progs.into_iter().enumerate() {
            if let Some(d) = &keep {
                let _ = std::fs::write(d.join(format!("gen{k}.c")), &src);
            }
            let path = dir.path().join("gen.c");
            std::fs::write(&path, src).expect("write");
            let mut config = Config::new(vec![path]);
            config.mode = mode;
            let program = watts::frontend::load(&config).expect("compile");
            compare(&name, &mut config, &program, runs);
        }
    }

    if corpus && bench {
        header(&format!("corpus, mode {}", mode.name()));
        let mut files = Vec::new();
        corpus_files(Path::new("tests/corpus"), &mut files);
        let (mut ti, mut to, mut peak, mut worst) = (0.0, 0.0, 0.0f64, (0.0f64, String::new()));
        for f in files {
            let src = std::fs::read_to_string(&f).unwrap_or_default();
            let mut config = Config::new(vec![f.clone()]);
            config.clang_args = clang_args(&src);
            config.mode = mode;
            let Ok(program) = watts::frontend::load(&config) else {
                continue;
            };
            let name = f.display().to_string().replace("tests/corpus/", "");
            let (i, o, mb) = compare(&name, &mut config, &program, runs);
            ti += i;
            to += o;
            peak = peak.max(mb);
            if i > 0.5 && o / i > worst.0 {
                worst = (o / i, name);
            }
        }
        println!(
            "\ncorpus total: interval {ti:.1} ms, octagon {to:.1} ms, ratio {:.2}; \
             worst ratio (programs above 0.5 ms) {:.2} ({}); peak octagon memory {peak:.1} MB",
            to / ti.max(1e-6),
            worst.0,
            worst.1
        );
    }
}
