//! Random multithreaded C programs as a soundness oracle for the analysis, checked by the
//! explorer: a deterministic generator writes small pthread programs (shared globals, loads
//! into locals, stores of computed values, branches, a mutex and atomic sections, short loops,
//! an array, pointers to the globals (also as thread arguments and through called functions),
//! threads created once or in a loop, joins, `__VERIFIER_nondet_int`, and assertions over
//! locals and globals; in a minority of programs, a heap block that main frees after the joins
//! or while the threads run, an atomic flag stored and loaded relaxed or release/acquire around
//! plain accesses, and a handle reused for a second create), and for each program
//!
//! - every assertion that `watts confirm`'s explorer violates (with a witness that replays) is
//!   neither proved nor unreachable in any mode and domain;
//! - the modes are ordered (flow-insensitive ⊆ flow-sensitive ⊆ constraints = optimized, in
//!   what they prove or find unreachable) and octagon proves what interval proves;
//! - a race that an execution reaches (two conflicting accesses, or an access and a `free` of
//!   its block, both next) is reported in every mode and domain.
//!
//! `WATTS_RANDOM_PROGRAMS=N` (default 120) and `WATTS_RANDOM_SEED=S` (default 1) choose the
//! programs; a failure names the seed of the program, which is written to a temporary file
//! whose path the message shows.

use std::fmt::Write as _;
use std::time::Duration;

use watts::verdicts::Status;
use watts::{Config, DomainKind, Mode};

/// A small deterministic generator (xorshift64*), so that a seed names one program forever.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const CMP: [&str; 6] = ["==", "!=", "<", "<=", ">", ">="];
/// How often a program has the heap block `hb` (made before the threads, freed by main after
/// the joins or while the threads may run), in percent.
const HEAP_PERCENT: usize = 15;
/// How often a program has the atomic flag `f` (stored and loaded relaxed, or release and
/// acquire, around plain accesses of the globals), in percent.
const FLAG_PERCENT: usize = 15;
/// How often, when both of two threads are created once, the first's handle is reused for the
/// second's create (after a join of the first, or now and then without), in percent.
const REUSE_PERCENT: usize = 50;
const LOCALS: usize = 3;

/// Writes the statements of one program's function bodies.
struct Gen {
    rng: Rng,
    globals: usize,
    /// Whether the program has its mutex (its statements may lock it).
    mutex: bool,
    /// Whether the statements being written run in a created thread (which may end early
    /// through `pthread_exit`, in a callee or through a pointer).
    in_thread: bool,
    /// The draws of the constructs that only a minority of programs have (a heap block,
    /// an atomic flag, a reused handle): apart from the lines they add, a program is the one
    /// the main stream alone writes, so the older constructs keep their share.
    extra: Rng,
    /// Whether the statements being written may use the heap block `hb` (it exists and is
    /// not freed yet where they run).
    heap: bool,
    /// Whether the program has the atomic flag `f`.
    flag: bool,
}

impl Gen {
    fn local(&mut self) -> String {
        format!("l{}", self.rng.below(LOCALS))
    }

    fn global(&mut self) -> String {
        format!("g{}", self.rng.below(self.globals))
    }

    fn constant(&mut self) -> usize {
        self.rng.below(6)
    }

    fn value(&mut self) -> String {
        match self.rng.below(5) {
            0 => self.constant().to_string(),
            1 => self.local(),
            2 => format!("{} + {}", self.local(), 1 + self.rng.below(3)),
            3 => format!("{} - {}", self.local(), 1 + self.rng.below(2)),
            _ => format!("{} * 2", self.local()),
        }
    }

    fn condition(&mut self) -> String {
        let op = self.rng.pick(&CMP);
        match self.rng.below(4) {
            0 | 1 => format!("{} {op} {}", self.local(), self.constant()),
            2 => format!("{} {op} {}", self.global(), self.constant()),
            _ => format!(
                "{} {op} {} + {}",
                self.local(),
                self.local(),
                self.rng.below(3)
            ),
        }
    }

    /// Now and then, before a statement: an access of the heap block or of the atomic flag
    /// (around plain accesses of globals), written from the `extra` stream.
    fn extra_statement(&mut self, out: &mut String, indent: &str) {
        let heap = self.heap && self.extra.chance(25);
        let flag = self.flag && self.extra.chance(25);
        if !heap && !flag {
            return;
        }
        // The main stream's draws stay as they are: the line's own draws come from `extra`.
        std::mem::swap(&mut self.rng, &mut self.extra);
        let line = if heap {
            match self.rng.below(3) {
                0 => format!("hb[0] = {};", self.value()),
                1 => format!("{} = hb[1];", self.local()),
                _ => format!("hb[{} & 1] = {};", self.local(), self.value()),
            }
        } else {
            // A relaxed flag publishes nothing (the race check's `publishing_edges`); release
            // and acquire do.
            let store = if self.rng.chance(30) {
                "memory_order_release"
            } else {
                "memory_order_relaxed"
            };
            let load = if self.rng.chance(30) {
                "memory_order_acquire"
            } else {
                "memory_order_relaxed"
            };
            match self.rng.below(5) {
                0 | 1 => format!(
                    "{} = {}; atomic_store_explicit(&f, 1, {store});",
                    self.global(),
                    self.value()
                ),
                2 => format!(
                    "for (int i = 0; i < 2 && !atomic_load_explicit(&f, {load}); i++) {{}} {} = {};",
                    self.local(),
                    self.global()
                ),
                3 => format!(
                    "if (atomic_load_explicit(&f, {load})) {} = {}; else {} = {};",
                    self.global(),
                    self.value(),
                    self.local(),
                    self.global()
                ),
                _ => format!("{} = atomic_load_explicit(&f, {load});", self.local()),
            }
        };
        std::mem::swap(&mut self.rng, &mut self.extra);
        let _ = writeln!(out, "{indent}{line}");
    }

    /// One statement at nesting `depth` (compound statements only above depth 0; one lock or
    /// atomic section at a time).
    fn statement(&mut self, out: &mut String, indent: &str, depth: usize, locked: bool) {
        self.extra_statement(out, indent);
        let inner = format!("{indent}  ");
        let choice = self.rng.below(if depth == 0 { 14 } else { 18 });
        // Now and then, one of the constructs at the edges of the C model: a pointer that
        // round-trips through an integer, a thread that ends in a callee (inlined, recursive,
        // or `pthread_exit` through a pointer).
        if self.rng.chance(8) {
            // A thread never ends while it holds the mutex or is in an atomic section.
            let exits = self.in_thread && !locked;
            let line = match self.rng.below(if exits { 5 } else { 2 }) {
                0 => format!(
                    "{{ long ip = (long)&{}; *(int *)ip = {}; }}",
                    self.global(),
                    self.value()
                ),
                1 => format!("{} = *(int *)(long)p;", self.local()),
                2 => format!("quit({});", self.condition()),
                3 => format!("quit_rec({} & 1);", self.local()),
                _ => format!("if ({}) exit_through(0);", self.condition()),
            };
            let _ = writeln!(out, "{indent}{line}");
            return;
        }
        let line = match choice {
            0 | 1 => format!("{} = {};", self.local(), self.global()),
            2 | 3 => format!("{} = {};", self.global(), self.value()),
            4 => format!("assert({});", self.condition()),
            5 => format!("{} = __VERIFIER_nondet_int() % 4;", self.local()),
            6 => format!("p = &{};", self.global()),
            7 => format!("*p = {};", self.value()),
            8 => format!("{} = *p;", self.local()),
            9 => format!("arr[{} & 1] = {};", self.local(), self.value()),
            10 => format!("{} = arr[{} & 1];", self.local(), self.local()),
            11 => format!("put(&{}, {});", self.global(), self.value()),
            12 => format!("{} = get(p);", self.local()),
            13 => format!("*a = {};", self.value()),
            14 | 15 => {
                let cond = self.condition();
                let _ = writeln!(out, "{indent}if ({cond}) {{");
                self.statement(out, &inner, depth - 1, locked);
                let _ = writeln!(out, "{indent}}} else {{");
                self.statement(out, &inner, depth - 1, locked);
                let _ = writeln!(out, "{indent}}}");
                return;
            }
            16 if !locked => {
                let (enter, leave) = if self.mutex && self.rng.chance(70) {
                    ("pthread_mutex_lock(&m);", "pthread_mutex_unlock(&m);")
                } else {
                    ("__VERIFIER_atomic_begin();", "__VERIFIER_atomic_end();")
                };
                let _ = writeln!(out, "{indent}{enter}");
                for _ in 0..2 {
                    self.statement(out, &inner, depth - 1, true);
                }
                let _ = writeln!(out, "{indent}{leave}");
                return;
            }
            _ => {
                let _ = writeln!(out, "{indent}for (int i = 0; i < 2; i++) {{");
                self.statement(out, &inner, depth - 1, locked);
                let _ = writeln!(out, "{indent}}}");
                return;
            }
        };
        let _ = writeln!(out, "{indent}{line}");
    }

    fn block(&mut self, out: &mut String, statements: usize) {
        for _ in 0..statements {
            self.statement(out, "  ", 1, false);
        }
    }
}

/// The C text of program `seed`.
fn program(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let globals = 2 + rng.below(2);
    let threads = 1 + rng.below(2);
    let mutex = rng.chance(40);
    // The minority constructs, each in about one program in seven (a reused handle is
    // chosen below, when there are two threads).
    let mut extra = Rng::new(seed ^ 0x5EED_F00D);
    let heap = extra.chance(HEAP_PERCENT);
    // Whether main frees the block only after joining every thread.
    let free_after_joins = extra.chance(50);
    let flag = extra.chance(FLAG_PERCENT);
    let mut g = Gen {
        rng,
        globals,
        mutex,
        in_thread: true,
        extra,
        heap,
        flag,
    };
    let mut c = String::from(
        "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\nextern int __VERIFIER_nondet_int(void);\n\
         extern void __VERIFIER_atomic_begin(void);\nextern void __VERIFIER_atomic_end(void);\n\
         int arr[2];\n\
         static void put(int *q, int v) { *q = v; }\n\
         static int get(int *q) { return *q; }\n\
         static void quit(int c) { if (c) pthread_exit(0); }\n\
         static void quit_rec(int n) { if (n <= 0) pthread_exit(0); quit_rec(n - 1); }\n\
         void (*exit_through)(void *) = pthread_exit;\n\
         static void swap(pthread_t *x, pthread_t *y) { pthread_t t = *x; *x = *y; *y = t; }\n",
    );
    for i in 0..globals {
        let _ = writeln!(c, "int g{i} = {};", g.rng.below(3));
    }
    if heap {
        c.push_str("#include <stdlib.h>\nint *hb;\n");
    }
    if flag {
        let ty = if g.extra.chance(50) {
            "atomic_int"
        } else {
            "_Atomic int"
        };
        let _ = writeln!(c, "#include <stdatomic.h>\n{ty} f;");
    }
    if mutex {
        c.push_str("pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n");
    }
    let locals = "  int l0 = 0, l1 = 0, l2 = 0;\n  int *p = &g0;\n";
    let unused = "  (void)l0; (void)l1; (void)l2; (void)p; (void)a;\n";
    let unused_main = "  (void)l0; (void)l1; (void)l2; (void)p; (void)a; (void)r;\n";
    // A thread's `a` points to the global its creator passed; main's to a local of its own.
    for t in 0..threads {
        let _ = writeln!(c, "void *t{t}(void *arg) {{\n  int *a = arg;\n{locals}");
        let n = 2 + g.rng.below(4);
        g.block(&mut c, n);
        let cond = g.condition();
        // A thread may return the address of a global, which its joiner writes through.
        let result = if g.rng.chance(40) {
            format!("&{}", g.global())
        } else {
            "0".to_string()
        };
        let _ = writeln!(c, "  assert({cond});\n{unused}  return {result};\n}}");
    }
    g.in_thread = false;
    // main: statements, creates (a thread twice in a loop now and then; one on a branch now
    // and then, with a write on the other branch), statements, handle copies, joins of some
    // threads (with the thread's result, written or read through), statements.
    let _ = writeln!(
        c,
        "int main(void) {{\n{locals}  int own = 0;\n  int *a = &own;\n  void *r = 0;"
    );
    // The heap block is made before the threads, which reach it through `hb`.
    if heap {
        c.push_str("  hb = malloc(2 * sizeof(int));\n  hb[0] = 0; hb[1] = 0;\n");
    }
    let before = g.rng.below(3);
    g.block(&mut c, before);
    // How thread t was created: in a loop (two instances), on a branch (its flag `c{t}` says
    // whether), once, or once with its handle then reused.
    enum Created {
        Loop,
        Branch,
        Once,
        /// Created once, its handle then used for the next thread's create (after a join of
        /// it, or now and then without): no later join of it.
        Reused,
    }
    let mut created = Vec::new();
    // The handle variable a join of thread t names (a reused one names the handle of the
    // thread before).
    let mut handle: Vec<String> = (0..threads).map(|t| format!("h{t}")).collect();
    for t in 0..threads {
        let arg = g.global();
        if g.rng.chance(25) {
            let _ = writeln!(
                c,
                "  pthread_t h{t}[2];\n  for (int i = 0; i < 2; i++) pthread_create(&h{t}[i], 0, t{t}, &{arg});"
            );
            created.push(Created::Loop);
        } else if g.rng.chance(25) {
            let (other, v) = (g.global(), g.value());
            let _ = writeln!(
                c,
                "  pthread_t h{t};\n  int c{t} = 0;\n  if (__VERIFIER_nondet_int()) {{ pthread_create(&h{t}, 0, t{t}, &{arg}); c{t} = 1; }} else {{ {other} = {v}; }}"
            );
            created.push(Created::Branch);
        } else if t == 1 && matches!(created[..], [Created::Once]) && g.extra.chance(REUSE_PERCENT)
        {
            // The first thread must be joined before the block is freed "after the joins".
            let first = if (heap && free_after_joins) || g.extra.chance(60) {
                c.push_str("  pthread_join(h0, 0);\n");
                "joined"
            } else {
                "still running"
            };
            let _ = writeln!(
                c,
                "  pthread_create(&h0, 0, t1, &{arg}); // h0 reused, t0 {first}"
            );
            created[0] = Created::Reused;
            created.push(Created::Once);
            handle[1] = "h0".into();
        } else {
            let _ = writeln!(
                c,
                "  pthread_t h{t};\n  pthread_create(&h{t}, 0, t{t}, &{arg});"
            );
            created.push(Created::Once);
        }
        let between = g.rng.below(2);
        g.block(&mut c, between);
    }
    // A racy free: the threads may still run (and those that touch the block after it stop).
    if heap && !free_after_joins {
        c.push_str("  free(hb); // while the threads may run\n");
        g.heap = false;
    }
    // Handles of two threads created once trade places: a join then waits for the other one.
    let once: Vec<usize> = (0..threads)
        .filter(|t| matches!(created[*t], Created::Once))
        .collect();
    if let [x, y] = once[..] {
        match g.rng.below(4) {
            0 => {
                let _ = writeln!(c, "  swap(&h{x}, &h{y});");
            }
            1 => {
                let _ = writeln!(c, "  {{ pthread_t t = h{x}; h{x} = h{y}; h{y} = t; }}");
            }
            2 => {
                let _ = writeln!(
                    c,
                    "  {{ pthread_t t; memcpy(&t, &h{x}, sizeof t); memcpy(&h{x}, &h{y}, sizeof t); memcpy(&h{y}, &t, sizeof t); }}"
                );
            }
            _ => {}
        }
    }
    let join_all = heap && free_after_joins;
    for (t, how) in created.iter().enumerate() {
        // A join the main stream did not choose (forced by a free after the joins) draws
        // nothing more from it.
        let chosen = g.rng.chance(50);
        if !chosen && !join_all {
            continue;
        }
        let h = &handle[t];
        let join = match how {
            Created::Loop => {
                let _ = writeln!(c, "  for (int i = 0; i < 2; i++) pthread_join({h}[i], 0);");
                continue;
            }
            Created::Branch => format!("if (c{t}) pthread_join({h}, &r);"),
            Created::Once => format!("pthread_join({h}, &r);"),
            Created::Reused => continue,
        };
        let _ = writeln!(c, "  {join}");
        if chosen && g.rng.chance(50) {
            let use_result = if g.rng.chance(50) {
                format!("*(int *)r = {};", g.value())
            } else {
                format!("{} = *(int *)r;", g.local())
            };
            let _ = writeln!(c, "  if (r) {{ {use_result} r = 0; }}");
        }
    }
    // A race-free free: every thread is joined.
    if join_all {
        c.push_str("  free(hb); // after the joins\n");
        g.heap = false;
    }
    let after = 1 + g.rng.below(3);
    g.block(&mut c, after);
    let cond = g.condition();
    let _ = writeln!(c, "  assert({cond});\n{unused_main}  return 0;\n}}");
    c
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const DOMAINS: [DomainKind; 2] = [DomainKind::Interval, DomainKind::Octagon];

fn holds(s: Status) -> bool {
    matches!(s, Status::Proved | Status::Unreachable)
}

/// Checks program `seed`; returns the number of its assertions and of those violated, or the
/// errors found.
// `a` indexes the innermost level of `statuses[domain][mode][assertion]`.
#[allow(clippy::needless_range_loop)]
/// The program of `seed` checked: (assertions, violated by the explorer, proved by
/// exploration), or what went wrong.
fn check(seed: u64, dir: &std::path::Path) -> Result<(usize, usize, usize, bool), Vec<String>> {
    let text = program(seed);
    let path = dir.join(format!("random-{seed}.c"));
    std::fs::write(&path, &text).expect("write program");
    let shown = path.display().to_string();
    let mut config = Config::new(vec![path]);
    config.clang_args = vec!["-w".into()];
    let program =
        watts::load_program(&config).map_err(|e| vec![format!("{shown}: front end: {e}")])?;
    let n = program.asserts.len();
    // statuses[domain][mode][assertion]
    let mut statuses = Vec::new();
    // races[domain][mode]: the places of each reported race's accesses; `None` when the
    // race check was incomplete (then it claims nothing).
    let mut races: Vec<Vec<Option<Vec<Vec<watts::ir::Span>>>>> = Vec::new();
    for domain in DOMAINS {
        let mut per_mode = Vec::new();
        let mut races_per_mode = Vec::new();
        for mode in Mode::ALL {
            config.mode = mode;
            config.domain = domain;
            let out = watts::analysis::analyze(&program, &config)
                .map_err(|e| vec![format!("{shown}: {}/{}: {e}", mode.name(), domain.name())])?;
            per_mode.push(
                out.verdicts
                    .iter()
                    .map(|v| Status::from(&v.verdict))
                    .collect::<Vec<_>>(),
            );
            races_per_mode.push(
                out.races
                    .as_ref()
                    .filter(|c| c.incomplete.is_none())
                    .map(|c| {
                        (c.races.iter())
                            .map(|r| r.accesses.iter().filter_map(|a| a.span).collect())
                            .collect()
                    }),
            );
        }
        statuses.push(per_mode);
        races.push(races_per_mode);
    }
    let options = watts::config::ConfirmOptions {
        bound: 4,
        timeout: Duration::from_millis(800),
        witness_dir: None,
        ..Default::default()
    };
    let all = (0..n).map(watts::ir::AssertId::from).collect();
    let found = watts::explore::confirm(&program, &options, &all, Vec::new())
        .map_err(|e| vec![format!("{shown}: confirm: {e}")])?
        .outcome;
    let deadline = std::time::Instant::now() + Duration::from_millis(800);
    let proof = watts::explore::proof::prove(&program, &all, deadline);
    let mut errors = Vec::new();
    let line = |a: usize| program.asserts[a].span.map_or(0, |s| s.line);
    // A proof by exploration never proves what the explorer fails, and what its own
    // executions fail no mode proves.
    for id in &proof.proved {
        if found.violations.contains_key(id) {
            errors.push(format!(
                "{shown}:{}: proved by exploration, yet an execution fails it",
                line(id.index())
            ));
        }
    }
    for id in &proof.failed {
        for (d, domain) in DOMAINS.iter().enumerate() {
            for (m, mode) in Mode::ALL.iter().enumerate() {
                let s = statuses[d][m][id.index()];
                if holds(s) {
                    errors.push(format!(
                        "{shown}:{}: {} in {}/{}, yet an execution of the exact interpreter fails it",
                        line(id.index()),
                        s.name(),
                        mode.name(),
                        domain.name()
                    ));
                }
            }
        }
    }
    for (id, violation) in &found.violations {
        let a = id.index();
        if !matches!(
            watts::explore::replay(&program, violation),
            Ok(watts::explore::Replayed::Fails { .. })
        ) {
            errors.push(format!("{shown}:{}: the witness does not replay", line(a)));
        }
        for (d, domain) in DOMAINS.iter().enumerate() {
            for (m, mode) in Mode::ALL.iter().enumerate() {
                let s = statuses[d][m][a];
                if holds(s) {
                    errors.push(format!(
                        "{shown}:{}: {} in {}/{}, yet an execution fails it",
                        line(a),
                        s.name(),
                        mode.name(),
                        domain.name()
                    ));
                }
            }
        }
    }
    // A race that an execution reaches (two conflicting accesses both next) is reported in
    // every mode and domain.
    let confirmed_race =
        witnessed_race(&program, &options).map_err(|e| vec![format!("{shown}: {e}")])?;
    if let Some((x, y)) = confirmed_race {
        for (d, domain) in DOMAINS.iter().enumerate() {
            for (m, mode) in Mode::ALL.iter().enumerate() {
                let Some(reported) = &races[d][m] else {
                    continue;
                };
                if !reported.iter().any(|r| r.contains(&x) && r.contains(&y)) {
                    errors.push(format!(
                        "{shown}:{}:{} and {}:{}: an execution reaches both accesses at once, yet {}/{} reports no race between them",
                        x.line,
                        x.col,
                        y.line,
                        y.col,
                        mode.name(),
                        domain.name()
                    ));
                }
            }
        }
    }
    for a in 0..n {
        for (d, domain) in DOMAINS.iter().enumerate() {
            // flow-insensitive ⊆ flow-sensitive ⊆ constraints; then constraints = optimized.
            for m in 1..3 {
                let (weaker, stronger) = (statuses[d][m - 1][a], statuses[d][m][a]);
                if holds(weaker) && !holds(stronger) {
                    errors.push(format!(
                        "{shown}:{}: {} in {} but {} in {} ({})",
                        line(a),
                        weaker.name(),
                        Mode::ALL[m - 1].name(),
                        stronger.name(),
                        Mode::ALL[m].name(),
                        domain.name()
                    ));
                }
            }
            let (c, o) = (statuses[d][2][a], statuses[d][3][a]);
            if holds(c) != holds(o) {
                errors.push(format!(
                    "{shown}:{}: {} in constraints but {} in optimized ({})",
                    line(a),
                    c.name(),
                    o.name(),
                    domain.name()
                ));
            }
        }
        for (m, mode) in Mode::ALL.iter().enumerate() {
            if holds(statuses[0][m][a]) && !holds(statuses[1][m][a]) {
                errors.push(format!(
                    "{shown}:{}: interval proves it but octagon does not ({})",
                    line(a),
                    mode.name()
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok((
            n,
            found.violations.len(),
            proof.proved.len(),
            confirmed_race.is_some(),
        ))
    } else {
        Err(errors)
    }
}

/// A race of some execution of `program`, found with no help from the analysis: a state in
/// which two threads are about to run conflicting accesses, whatever their places; the places
/// of those two accesses (from the replayed witness, whose last two steps they are).
fn witnessed_race(
    program: &watts::ir::Program,
    options: &watts::config::ConfirmOptions,
) -> Result<Option<(watts::ir::Span, watts::ir::Span)>, String> {
    use watts::ir::{lib::LibFn, Callee, InstKind};
    let spans = (program.funcs.iter())
        .flat_map(|f| f.blocks.iter().flat_map(|b| b.insts.iter()))
        .filter(|i| match &i.kind {
            InstKind::Load { .. }
            | InstKind::Store { .. }
            | InstKind::AtomicRmw { .. }
            | InstKind::CmpXchg { .. } => true,
            // A `free` writes its whole block (the explorer's `pending_free`).
            InstKind::Call {
                callee: Callee::Direct(f),
                ..
            } => program.funcs[f.index()].library() == Some(LibFn::Free),
            _ => false,
        })
        .filter_map(|i| i.span)
        .collect();
    let id = watts::ir::AssertId::from(program.asserts.len());
    let target = watts::explore::RaceTarget {
        id,
        spans,
        memory: watts::explore::RaceMemory::Any,
    };
    let options = watts::config::ConfirmOptions {
        timeout: Duration::from_millis(400),
        ..options.clone()
    };
    let found = watts::explore::confirm(program, &options, &[id].into(), vec![target.clone()])
        .map_err(|e| format!("confirm of races: {e}"))?
        .outcome;
    let Some(v) = found.violations.get(&id) else {
        return Ok(None);
    };
    let w = watts::explore::race_witness(program, &[target], v)
        .ok_or("a race the explorer found does not replay")?;
    let [.., x, y] = &w.steps[..] else {
        return Err("a race witness has fewer than two steps".into());
    };
    match (x.span, y.span) {
        (Some(x), Some(y)) => Ok(Some((x, y))),
        _ => Err("a race witness's accesses have no place".into()),
    }
}

#[test]
fn random_programs_violated_by_the_explorer_are_never_proved() {
    let count = env_u64("WATTS_RANDOM_PROGRAMS", 120);
    let first = env_u64("WATTS_RANDOM_SEED", 1);
    // Failing programs stay on disk for inspection.
    let dir = tempfile::Builder::new()
        .prefix("watts-random-")
        .tempdir()
        .expect("temp dir")
        .keep();
    let (mut asserts, mut violated, mut explored, mut errors) = (0, 0, 0, Vec::new());
    let mut raced = 0;
    for seed in first..first + count {
        match check(seed, &dir) {
            Ok((n, v, p, r)) => {
                asserts += n;
                violated += v;
                explored += p;
                raced += usize::from(r);
            }
            Err(e) => errors.extend(e),
        }
    }
    println!(
        "{count} random programs (seeds {first}..{}): {asserts} assertions, {violated} violated, {explored} proved by exploration, {raced} with a race an execution reaches",
        first + count
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // The generator must keep producing real failures, or the oracle checks nothing.
    assert!(
        violated * 5 >= asserts,
        "only {violated} of {asserts} assertions violated"
    );
    assert!(
        raced * 5 >= count as usize,
        "only {raced} of {count} programs with a race an execution reaches"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_generator_is_deterministic_and_varied() {
    assert_eq!(program(7), program(7));
    let texts: std::collections::BTreeSet<String> = (0..200).map(program).collect();
    assert_eq!(texts.len(), 200);
    let all = texts.into_iter().collect::<String>();
    for feature in [
        "pthread_mutex_lock",
        "for (int i = 0; i < 2; i++) pthread_create",
        "pthread_join",
        "__VERIFIER_nondet_int",
        "if (",
        "assert(",
        "*p = ",
        "__VERIFIER_atomic_begin",
        "put(&",
        "= get(p)",
        "arr[",
        "*a = ",
        "*(int *)ip = ",
        "quit(",
        "quit_rec(",
        "exit_through(0)",
        "swap(&h",
        "memcpy(&h",
        "= h1; h1 = t;",
        "pthread_join(h0, &r)",
        "if (r) {",
        "return &g",
        "if (__VERIFIER_nondet_int()) { pthread_create",
        "hb[0] = ",
        "= hb[1];",
        "free(hb); // while the threads may run",
        "free(hb); // after the joins",
        "atomic_int f;",
        "_Atomic int f;",
        "atomic_store_explicit(&f, 1, memory_order_relaxed);",
        "atomic_store_explicit(&f, 1, memory_order_release);",
        "!atomic_load_explicit(&f, memory_order_relaxed); i++) {}",
        "if (atomic_load_explicit(&f, memory_order_acquire))",
        "// h0 reused, t0 joined",
        "// h0 reused, t0 still running",
    ] {
        assert!(all.contains(feature), "no program has {feature}");
    }
}
