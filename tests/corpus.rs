//! The annotated corpus: every `tests/corpus/**/*.c` program is compiled once and analysed in
//! every mode × domain; each assertion's verdict is checked against the annotation beside it.
//! A second phase runs the csmith soundness oracle (`tests/csmith/sweep.sh`): for each seed, a
//! random program whose real checksum is known ends in `assert(checksum == REAL)`, which must
//! not be unreachable or violated, and `assert(checksum != REAL)`, which must not be proved or
//! unreachable, in every implemented configuration, without a panic and within the budget.
//!
//! Run with `cargo test --test corpus`. Environment:
//! - `WATTS_CORPUS_FILTER=substring`: only files (and csmith seeds, named `csmith/seed-N`) whose
//!   path contains the substring.
//! - `WATTS_CORPUS_JOBS=N`: worker threads (default 2).
//! - `WATTS_CORPUS_TIMEOUT=SECS`: budget of one front-end run or one analysis (default 60).
//! - `WATTS_CSMITH_SEEDS=N`: how many csmith seeds to run (default 12; 0 turns the phase off).
//!
//! # Annotations
//!
//! The annotation of an assertion is the first word of a `//` comment on the line of the
//! assertion call (`assert(...)`, `__VERIFIER_assert(...)`, `reach_error()`,
//! `__VERIFIER_error()`); more words may follow as an explanation:
//!
//! ```c
//! assert(x <= 5);   // PROVED                 proved in every mode and domain
//! assert(x == 4);   // PROVED(flow-sensitive) proved from that mode up; may-fail below it
//! assert(y == 1);   // FAILS!                 really fails: may-fail or violated, everywhere
//! assert(z > 0);    // MAY-FAIL               true or unknown, but not provable today: may-fail
//! assert(w != 3);   // TODO                   true: proved or may-fail (never unreachable)
//! reach_error();    // UNREACHABLE            unreachable in every mode and domain
//! reach_error();    // UNREACHABLE(constraints)  unreachable from that mode up, reachable below
//! ```
//!
//! - The modes are ordered flow-insensitive < flow-sensitive < constraints = optimized, and the
//!   domains interval < octagon. The argument of `PROVED(...)` / `UNREACHABLE(...)` is a mode,
//!   a domain, or both separated by a comma (`PROVED(flow-sensitive, octagon)`): the verdict is
//!   expected in every configuration at or above both; in the others `PROVED(..)` expects
//!   exactly may-fail and `UNREACHABLE(..)` expects proved or may-fail. Exact expectations make
//!   the test notice improvements too: upgrade the annotation when it reports one.
//! - A colon may follow the annotation (`MAY-FAIL: true, but ...`). A `//` comment that starts
//!   with one of these words is an annotation wherever it is, so prose comments must not.
//! - Every assertion site in the file must carry exactly one annotation, and every annotation
//!   must be on the line of an assertion site (several sites on one line share it).
//!   Assertion sites whose position is in another file (a header) are not checked.
//!
//! # Race annotations
//!
//! A `//` comment that starts with a race mark is about the memory accesses of its line (the
//! race check runs in every configuration, alongside the assertions):
//!
//! ```c
//! count++;          // RACE!      a real race: some reported race lists this line, everywhere
//! total += n;       // NO-RACE    race-free: no reported race lists this line, anywhere
//! cfg.level = 2;    // MAY-RACE   race-free but reported (accepted imprecision): listed
//! ```
//!
//! A file needs at least one assertion or one race mark.
//!
//! # Parameters
//!
//! Lines `//PARAM: ARGS` anywhere in the file restrict the configurations or pass clang
//! arguments; several lines add up:
//!
//! ```c
//! //PARAM: --mode constraints --mode optimized   only these modes (default: all four)
//! //PARAM: --domain octagon                      only this domain (default: both)
//! //PARAM: -- -m32 -DN=3                         clang arguments (everything after `--`)
//! //PARAM: --init dev_init --entries-from fops   a driver harness (also --entry FN[:N|*],
//!                                                --entries-exported, --assume-no-write FN),
//!                                                as on the command line
//! ```
//!
//! # Checks and output
//!
//! One check per annotated site and configuration, plus the mode order per site and domain:
//! what a mode proves (proved or unreachable) a stronger mode proves too, and constraints and
//! optimized prove the same; and the domain order per site and mode: what the interval domain
//! proves, the octagon proves too. A configuration the library does not implement yet (the analysis
//! returns `InputError::Unsupported`) is skipped with one `skipped: <mode>/<domain> not
//! implemented` line. A panic or a budget overrun in one file is one failure of that file.
//! Output: one line per mismatch, sorted by file, then `corpus: N passed, M failed`.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::params::{parse_domain, parse_mode, Params, DOMAINS};
use watts::analysis::Analysis as Outcome;
use watts::ir::Program;
use watts::verdicts::Status;
use watts::{Config, DomainKind, InputError, Mode};

/// The csmith seeds run by default, in this order; `WATTS_CSMITH_SEEDS=N` takes the first N of
/// these, then consecutive seeds from 1000.
const CSMITH_SEEDS: [u64; 12] = [6, 10, 4, 21, 17, 7, 1000, 1001, 1002, 1003, 1004, 1005];

fn mode_rank(m: Mode) -> u8 {
    match m {
        Mode::FlowInsensitive => 0,
        Mode::FlowSensitive => 1,
        Mode::Constraints | Mode::Optimized => 2,
    }
}

fn domain_rank(d: DomainKind) -> u8 {
    match d {
        DomainKind::Interval => 0,
        DomainKind::Octagon => 1,
    }
}

// ---------------------------------------------------------------------------------------------
// Annotations

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Proved,
    Fails,
    MayFail,
    Todo,
    Unreachable,
}

#[derive(Clone, Debug)]
struct Annotation {
    kind: Kind,
    /// The weakest mode and domain from which `Proved` / `Unreachable` is expected.
    from_mode: Option<Mode>,
    from_domain: Option<DomainKind>,
    /// As written, for messages.
    text: String,
}

impl Annotation {
    fn applies(&self, mode: Mode, domain: DomainKind) -> bool {
        self.from_mode
            .iter()
            .all(|m| mode_rank(mode) >= mode_rank(*m))
            && self
                .from_domain
                .iter()
                .all(|d| domain_rank(domain) >= domain_rank(*d))
    }

    /// `Ok` when `status` is what the annotation expects in this configuration, else the
    /// expectation in words.
    fn check(&self, mode: Mode, domain: DomainKind, status: Status) -> Result<(), String> {
        use Status::*;
        let full = self.applies(mode, domain);
        let (ok, expected) = match self.kind {
            Kind::Proved if full => (status == Proved, self.text.clone()),
            Kind::Proved => (
                status == MayFail,
                format!("may-fail (annotated {})", self.text),
            ),
            Kind::Unreachable if full => (status == Unreachable, self.text.clone()),
            Kind::Unreachable => (
                matches!(status, Proved | MayFail),
                format!("proved or may-fail (annotated {})", self.text),
            ),
            Kind::Fails => (matches!(status, MayFail | Violated), self.text.clone()),
            Kind::MayFail => (status == MayFail, self.text.clone()),
            Kind::Todo => (matches!(status, Proved | MayFail), self.text.clone()),
        };
        if ok {
            Ok(())
        } else {
            Err(expected)
        }
    }
}

/// Parses the annotation word at the start of a comment, if it is one.
fn parse_annotation(comment: &str) -> Option<Result<Annotation, String>> {
    let first = comment.split_whitespace().next()?;
    let word = first.strip_suffix(':').unwrap_or(first);
    let (head, arg) = match word.find('(') {
        Some(i) => (&word[..i], Some(&word[i..])),
        None => (word, None),
    };
    let kind = match head {
        "PROVED" => Kind::Proved,
        "FAILS!" => Kind::Fails,
        "MAY-FAIL" => Kind::MayFail,
        "TODO" => Kind::Todo,
        "UNREACHABLE" => Kind::Unreachable,
        _ => return None,
    };
    // The argument may contain a space after the comma: take it from the comment itself.
    let mut ann = Annotation {
        kind,
        from_mode: None,
        from_domain: None,
        text: head.to_string(),
    };
    if arg.is_some() {
        let start = comment.find('(').unwrap();
        let Some(len) = comment[start..].find(')') else {
            return Some(Err(format!("unclosed `(` in annotation `{word}`")));
        };
        let inner = &comment[start + 1..start + len];
        if !matches!(kind, Kind::Proved | Kind::Unreachable) {
            return Some(Err(format!("`{head}` takes no argument")));
        }
        for item in inner.split(',').map(str::trim) {
            if let Some(m) = parse_mode(item) {
                if ann.from_mode.replace(m).is_some() {
                    return Some(Err(format!("two modes in `{head}({inner})`")));
                }
            } else if let Some(d) = parse_domain(item) {
                if ann.from_domain.replace(d).is_some() {
                    return Some(Err(format!("two domains in `{head}({inner})`")));
                }
            } else {
                return Some(Err(format!(
                    "`{item}` in `{head}({inner})` is neither a mode nor a domain"
                )));
            }
        }
        ann.text = format!("{head}({inner})");
    }
    Some(Ok(ann))
}

/// What a corpus file asks for.
#[derive(Debug)]
struct Spec {
    /// What its `//PARAM:` lines ask for.
    params: Params,
    /// Annotations by line.
    annotations: BTreeMap<u32, Annotation>,
    /// Race annotations by line.
    races: BTreeMap<u32, RaceMark>,
}

/// What a line's accesses are expected to do in the race check (`// RACE!`, `// NO-RACE`,
/// `// MAY-RACE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RaceMark {
    /// A real race: some reported race lists an access of this line, in every configuration.
    Race,
    /// No race: no reported race lists an access of this line.
    NoRace,
    /// Race-free, but reported (accepted imprecision): some race lists it, as for `RACE!`.
    MayRace,
}

impl RaceMark {
    fn parse(comment: &str) -> Option<RaceMark> {
        let first = comment.split_whitespace().next()?;
        match first.strip_suffix(':').unwrap_or(first) {
            "RACE!" => Some(RaceMark::Race),
            "NO-RACE" => Some(RaceMark::NoRace),
            "MAY-RACE" => Some(RaceMark::MayRace),
            _ => None,
        }
    }

    fn text(self) -> &'static str {
        match self {
            RaceMark::Race => "RACE!",
            RaceMark::NoRace => "NO-RACE",
            RaceMark::MayRace => "MAY-RACE",
        }
    }
}

/// Finds the `//` comment of a line, skipping string and character literals.
fn line_comment(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let c = bytes[i];
        match quote {
            Some(q) => {
                if c == b'\\' {
                    i += 1;
                } else if c == q {
                    quote = None;
                }
            }
            None => {
                if c == b'"' || c == b'\'' {
                    quote = Some(c);
                } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
                    return Some(&line[i + 2..]);
                }
            }
        }
        i += 1;
    }
    None
}

fn parse_spec(text: &str) -> Result<Spec, Vec<String>> {
    let mut errors = Vec::new();
    let mut spec = Spec {
        params: Params::default(),
        annotations: BTreeMap::new(),
        races: BTreeMap::new(),
    };
    for (i, line) in text.lines().enumerate() {
        let lineno = i as u32 + 1;
        if let Some(rest) = line.trim_start().strip_prefix("//PARAM:") {
            spec.params.read(rest, lineno, &mut errors);
            continue;
        }
        let Some(comment) = line_comment(line) else {
            continue;
        };
        if let Some(mark) = RaceMark::parse(comment) {
            spec.races.insert(lineno, mark);
            continue;
        }
        match parse_annotation(comment) {
            None => {}
            Some(Err(e)) => errors.push(format!("{lineno}: {e}")),
            Some(Ok(a)) => {
                spec.annotations.insert(lineno, a);
            }
        }
    }
    spec.params.finish();
    if errors.is_empty() {
        Ok(spec)
    } else {
        Err(errors)
    }
}

// ---------------------------------------------------------------------------------------------
// Running the library with panics caught and a time budget

thread_local! {
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

fn install_panic_hook() {
    panic::set_hook(Box::new(|info| {
        let msg = info.to_string().replace('\n', " ");
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(msg));
    }));
}

enum RunError {
    Panic(String),
    Timeout(Duration),
}

/// Runs `f` on a fresh thread, catching a panic, and gives up waiting after `budget` (the
/// thread is then left running; the process ends when the test does).
fn run_bounded<T: Send + 'static>(
    budget: Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<(T, Duration), RunError> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let t0 = Instant::now();
            let r = panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
                LAST_PANIC
                    .with(|p| p.borrow_mut().take())
                    .unwrap_or_else(|| {
                        payload
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| payload.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "panic".to_string())
                    })
            });
            let _ = tx.send((r, t0.elapsed()));
        });
    if let Err(e) = spawned {
        return Err(RunError::Panic(format!("cannot spawn a thread: {e}")));
    }
    match rx.recv_timeout(budget) {
        Ok((Ok(v), t)) => Ok((v, t)),
        Ok((Err(msg), _)) => Err(RunError::Panic(msg)),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(RunError::Timeout(budget)),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(RunError::Panic("the worker thread died".to_string()))
        }
    }
}

fn describe(e: &RunError) -> String {
    match e {
        RunError::Panic(m) => format!("panic: {m}"),
        RunError::Timeout(d) => format!("no result within {} s", d.as_secs()),
    }
}

type Analysis = Result<Outcome, InputError>;

fn load(
    path: &Path,
    clang_args: &[String],
    params: Option<&Params>,
    budget: Duration,
) -> Result<(Result<Program, InputError>, Duration), RunError> {
    let mut config = Config::new(vec![path.to_path_buf()]);
    config.clang_args = clang_args.to_vec();
    if let Some(params) = params {
        config.harness = Some(params.harness.clone()).filter(|h| h.is_active());
        config.assume_no_write = params.assume_no_write.clone();
    }
    run_bounded(budget, move || watts::load_program(&config))
}

fn analyze(
    program: &Arc<Program>,
    path: &Path,
    clang_args: &[String],
    mode: Mode,
    domain: DomainKind,
    budget: Duration,
) -> Result<(Analysis, Duration), RunError> {
    let mut config = Config::new(vec![path.to_path_buf()]);
    config.clang_args = clang_args.to_vec();
    config.mode = mode;
    config.domain = domain;
    let program = Arc::clone(program);
    run_bounded(budget, move || watts::analysis::analyze(&program, &config))
}

// ---------------------------------------------------------------------------------------------
// One file

/// What one file (or csmith seed) contributes to the output.
#[derive(Default)]
struct Report {
    lines: Vec<String>,
    passed: usize,
    failed: usize,
    /// Configurations that `analyze` reported as not implemented.
    unsupported: BTreeSet<(usize, usize)>,
}

impl Report {
    fn fail(&mut self, line: String) {
        self.lines.push(line);
        self.failed += 1;
    }
}

fn config_index(mode: Mode, domain: DomainKind) -> (usize, usize) {
    (
        Mode::ALL.iter().position(|m| *m == mode).unwrap(),
        domain_rank(domain) as usize,
    )
}

fn same_file(program: &Program, span_file: usize, canonical: &Path) -> bool {
    program.files.get(span_file).is_some_and(|f| {
        let p = Path::new(&f.path);
        p == canonical || std::fs::canonicalize(p).is_ok_and(|c| c == canonical)
    })
}

/// The assertion ids of `program` whose span is in `path`, by line; and how many sites have
/// no position at all.
fn sites_by_line(program: &Program, path: &Path) -> (BTreeMap<u32, Vec<usize>>, usize) {
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut by_line: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut no_span = 0;
    for (i, a) in program.asserts.iter().enumerate() {
        match a.span {
            Some(s) if same_file(program, s.file.0 as usize, &canonical) => {
                by_line.entry(s.line).or_default().push(i)
            }
            Some(_) => {}
            None => no_span += 1,
        }
    }
    (by_line, no_span)
}

fn check_file(path: &Path, shown: &str, budget: Duration) -> Report {
    let mut r = Report::default();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            r.fail(format!("{shown}: cannot read: {e}"));
            return r;
        }
    };
    let spec = match parse_spec(&text) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                r.fail(format!("{shown}:{e}"));
            }
            return r;
        }
    };
    let program = match load(path, &spec.params.clang_args, Some(&spec.params), budget) {
        Ok((Ok(p), _)) => Arc::new(p),
        Ok((Err(e), _)) => {
            r.fail(format!("{shown}: front end: {}", one_line(&e.to_string())));
            return r;
        }
        Err(e) => {
            r.fail(format!("{shown}: front end: {}", describe(&e)));
            return r;
        }
    };
    let (sites, no_span) = sites_by_line(&program, path);
    if no_span > 0 {
        r.fail(format!(
            "{shown}: {no_span} assertion site(s) without a source position"
        ));
    }
    for line in sites.keys() {
        if !spec.annotations.contains_key(line) {
            r.fail(format!("{shown}:{line}: assertion without an annotation"));
        }
    }
    for (line, a) in &spec.annotations {
        if !sites.contains_key(line) {
            r.fail(format!(
                "{shown}:{line}: annotation {} without an assertion site on its line",
                a.text
            ));
        }
    }
    if spec.annotations.is_empty() && sites.is_empty() && spec.races.is_empty() {
        r.fail(format!("{shown}: no assertion and no race annotation"));
        return r;
    }
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());

    // Verdicts per configuration that ran: config -> status per assertion id.
    let mut verdicts: BTreeMap<(usize, usize), Vec<Status>> = BTreeMap::new();
    for &domain in &spec.params.domains {
        for &mode in &spec.params.modes {
            let tag = format!("[{}/{}]", mode.name(), domain.name());
            let outcome = match analyze(
                &program,
                path,
                &spec.params.clang_args,
                mode,
                domain,
                budget,
            ) {
                Ok((Ok(o), _)) => o,
                Ok((Err(InputError::Unsupported(_)), _)) => {
                    r.unsupported.insert(config_index(mode, domain));
                    continue;
                }
                Ok((Err(e), _)) => {
                    r.fail(format!(
                        "{shown}: analysis: {} {tag}",
                        one_line(&e.to_string())
                    ));
                    continue;
                }
                Err(e) => {
                    r.fail(format!("{shown}: analysis: {} {tag}", describe(&e)));
                    continue;
                }
            };
            if outcome.verdicts.len() != program.asserts.len() {
                r.fail(format!(
                    "{shown}: {} verdicts for {} assertion sites {tag}",
                    outcome.verdicts.len(),
                    program.asserts.len()
                ));
                continue;
            }
            check_races(
                &mut r,
                shown,
                &tag,
                &program,
                &canonical,
                &spec.races,
                &outcome,
            );
            let statuses: Vec<Status> = outcome
                .verdicts
                .iter()
                .map(|v| Status::from(&v.verdict))
                .collect();
            for (line, ids) in &sites {
                let Some(ann) = spec.annotations.get(line) else {
                    continue;
                };
                for &id in ids {
                    match ann.check(mode, domain, statuses[id]) {
                        Ok(()) => r.passed += 1,
                        Err(expected) => r.fail(format!(
                            "{shown}:{line}: expected {expected}, got {} {tag}",
                            statuses[id].name()
                        )),
                    }
                }
            }
            verdicts.insert(config_index(mode, domain), statuses);
        }
    }

    // The mode order, between consecutive modes that ran, for every site of the program.
    for &domain in &spec.params.domains {
        let ran: Vec<Mode> = spec
            .params
            .modes
            .iter()
            .copied()
            .filter(|m| verdicts.contains_key(&config_index(*m, domain)))
            .collect();
        for pair in ran.windows(2) {
            let (lo, hi) = (pair[0], pair[1]);
            let a = &verdicts[&config_index(lo, domain)];
            let b = &verdicts[&config_index(hi, domain)];
            let equal = mode_rank(lo) == mode_rank(hi);
            for id in 0..a.len() {
                let safe = |s: Status| matches!(s, Status::Proved | Status::Unreachable);
                let where_ = match program.asserts[id].span {
                    Some(s) => format!("{shown}:{}", s.line),
                    None => format!("{shown}: assertion #{id}"),
                };
                let weaker = safe(a[id]) && !safe(b[id]);
                let unequal = equal && safe(b[id]) && !safe(a[id]);
                if weaker || unequal {
                    r.fail(format!(
                        "{where_}: mode order: {} in {} but {} in {} [{}]",
                        a[id].name(),
                        lo.name(),
                        b[id].name(),
                        hi.name(),
                        domain.name()
                    ));
                } else {
                    r.passed += 1;
                }
            }
        }
    }
    // The domain order: what the interval domain proves, the octagon proves in the same mode.
    for &mode in &spec.params.modes {
        let (Some(a), Some(b)) = (
            verdicts.get(&config_index(mode, DomainKind::Interval)),
            verdicts.get(&config_index(mode, DomainKind::Octagon)),
        ) else {
            continue;
        };
        for id in 0..a.len() {
            let safe = |s: Status| matches!(s, Status::Proved | Status::Unreachable);
            if safe(a[id]) && !safe(b[id]) {
                let line = program.asserts[id].span.map_or(0, |s| s.line);
                r.fail(format!(
                    "{shown}:{line}: domain order: {} with interval but {} with octagon [{}]",
                    a[id].name(),
                    b[id].name(),
                    mode.name()
                ));
            } else {
                r.passed += 1;
            }
        }
    }
    r
}

/// Checks the race annotations of a file against the races of one configuration: the lines of
/// this file whose accesses some reported race lists.
fn check_races(
    r: &mut Report,
    shown: &str,
    tag: &str,
    program: &Program,
    canonical: &Path,
    marks: &BTreeMap<u32, RaceMark>,
    outcome: &Outcome,
) {
    if marks.is_empty() {
        return;
    }
    let Some(check) = &outcome.races else {
        r.fail(format!("{shown}: the race check did not run {tag}"));
        return;
    };
    if let Some(why) = &check.incomplete {
        r.fail(format!(
            "{shown}: the race check is incomplete: {why:?} {tag}"
        ));
        return;
    }
    let racing: BTreeSet<u32> = (check.races.iter())
        .flat_map(|race| race.accesses.iter())
        .filter_map(|a| a.span)
        .filter(|s| same_file(program, s.file.0 as usize, canonical))
        .map(|s| s.line)
        .collect();
    for (line, mark) in marks {
        let reported = racing.contains(line);
        let ok = match mark {
            RaceMark::Race | RaceMark::MayRace => reported,
            RaceMark::NoRace => !reported,
        };
        if ok {
            r.passed += 1;
        } else {
            let got = if reported {
                "a race lists it"
            } else {
                "no race lists it"
            };
            r.fail(format!(
                "{shown}:{line}: expected {}, got {got} {tag}",
                mark.text()
            ));
        }
    }
}

fn one_line(s: &str) -> String {
    let lines: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let mut out = lines
        .iter()
        .take(4)
        .copied()
        .collect::<Vec<_>>()
        .join(" | ");
    if lines.len() > 4 {
        out.push_str(" | ...");
    }
    out
}

// ---------------------------------------------------------------------------------------------
// csmith

struct Seed {
    seed: u64,
    file: PathBuf,
    line: u32,
    checksum: String,
    native_ms: u64,
    lines: u64,
}

fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file()))
}

fn check_seed(s: &Seed, include: &str, budget: Duration) -> Report {
    let mut r = Report::default();
    let shown = format!("csmith/seed-{}", s.seed);
    let clang_args = vec!["-I".to_string(), include.to_string(), "-w".to_string()];
    let program = match load(&s.file, &clang_args, None, budget) {
        Ok((Ok(p), _)) => Arc::new(p),
        Ok((Err(e), _)) => {
            r.fail(format!("{shown}: front end: {}", one_line(&e.to_string())));
            return r;
        }
        Err(e) => {
            r.fail(format!("{shown}: front end: {}", describe(&e)));
            return r;
        }
    };
    // Line `s.line` holds an assertion that is true in every execution, the next line one that
    // fails in every execution.
    let (sites, _) = sites_by_line(&program, &s.file);
    let (Some(holds), Some(fails)) = (
        sites.get(&s.line).cloned(),
        sites.get(&(s.line + 1)).cloned(),
    ) else {
        r.fail(format!(
            "{shown}: the front end reports no assertion on line {} or {} of {}",
            s.line,
            s.line + 1,
            s.file.display()
        ));
        return r;
    };
    let mut slowest = Duration::ZERO;
    for domain in DOMAINS {
        for mode in Mode::ALL {
            let tag = format!("[{}/{}]", mode.name(), domain.name());
            match analyze(&program, &s.file, &clang_args, mode, domain, budget) {
                Ok((Ok(o), t)) => {
                    slowest = slowest.max(t);
                    let status = |id: usize| o.verdicts.get(id).map(|v| Status::from(&v.verdict));
                    for &id in &holds {
                        match status(id) {
                            Some(Status::Proved | Status::MayFail) => r.passed += 1,
                            Some(st) => r.fail(format!(
                                "{shown}:{}: UNSOUND: `checksum == 0x{}` holds in the real run, but is {} {tag}",
                                s.line,
                                s.checksum,
                                st.name()
                            )),
                            None => r.fail(format!("{shown}: no verdict for an assertion {tag}")),
                        }
                    }
                    for &id in &fails {
                        match status(id) {
                            Some(Status::MayFail | Status::Violated) => r.passed += 1,
                            Some(st) => r.fail(format!(
                                "{shown}:{}: UNSOUND: `checksum != 0x{}` fails in the real run, but is {} {tag}",
                                s.line + 1,
                                s.checksum,
                                st.name()
                            )),
                            None => r.fail(format!("{shown}: no verdict for an assertion {tag}")),
                        }
                    }
                }
                Ok((Err(InputError::Unsupported(_)), _)) => {
                    r.unsupported.insert(config_index(mode, domain));
                }
                Ok((Err(e), _)) => r.fail(format!(
                    "{shown}: analysis: {} {tag}",
                    one_line(&e.to_string())
                )),
                Err(e) => r.fail(format!("{shown}: analysis: {} {tag}", describe(&e))),
            }
        }
    }
    r.lines.push(format!(
        "{shown}: {} lines, native run {} ms, slowest analysis {} ms{}",
        s.lines,
        s.native_ms,
        slowest.as_millis(),
        if slowest * 4 > budget { " (slow)" } else { "" }
    ));
    r
}

// ---------------------------------------------------------------------------------------------
// Driver

type Job = Box<dyn FnOnce() -> Report + Send>;

/// Runs the jobs on `workers` threads and prints each report in job order as soon as it and
/// every job before it are done. Returns the merged counts.
fn run_jobs(jobs: Vec<Job>, workers: usize, total: &mut Report) {
    let n = jobs.len();
    let queue = Arc::new(Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>()));
    queue.lock().unwrap().reverse();
    let (tx, rx) = mpsc::channel::<(usize, Report)>();
    let mut handles = Vec::new();
    for _ in 0..workers.max(1).min(n.max(1)) {
        let queue = Arc::clone(&queue);
        let tx = tx.clone();
        handles.push(std::thread::spawn(move || loop {
            let next = queue.lock().unwrap().pop();
            let Some((i, job)) = next else { break };
            let report = match panic::catch_unwind(AssertUnwindSafe(job)) {
                Ok(r) => r,
                Err(_) => {
                    let mut r = Report::default();
                    r.fail(format!(
                        "job {i}: panic in the runner: {}",
                        LAST_PANIC
                            .with(|p| p.borrow_mut().take())
                            .unwrap_or_default()
                    ));
                    r
                }
            };
            if tx.send((i, report)).is_err() {
                break;
            }
        }));
    }
    drop(tx);
    let mut pending: BTreeMap<usize, Report> = BTreeMap::new();
    let mut next = 0;
    for (i, report) in rx {
        pending.insert(i, report);
        while let Some(r) = pending.remove(&next) {
            for line in &r.lines {
                println!("{line}");
            }
            total.passed += r.passed;
            total.failed += r.failed;
            total.unsupported.extend(r.unsupported);
            next += 1;
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if next < n {
        total.fail(format!("{} job(s) produced no report", n - next));
        println!("{} job(s) produced no report", n - next);
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

fn main() {
    install_panic_hook();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let filter = std::env::var("WATTS_CORPUS_FILTER").unwrap_or_default();
    let workers = env_usize("WATTS_CORPUS_JOBS", 2);
    let budget = Duration::from_secs(env_usize("WATTS_CORPUS_TIMEOUT", 60) as u64);
    let mut total = Report::default();

    // Phase 1: the annotated corpus.
    let mut files = Vec::new();
    common::corpus_files(&root.join("tests/corpus"), &mut files);
    let mut files: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|p| {
            let shown = p
                .strip_prefix(&root)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            (p, shown)
        })
        .filter(|(_, shown)| shown.contains(&filter))
        .collect();
    files.sort_by(|a, b| a.1.cmp(&b.1));
    let jobs: Vec<Job> = files
        .into_iter()
        .map(|(p, shown)| Box::new(move || check_file(&p, &shown, budget)) as Job)
        .collect();
    let corpus_files = jobs.len();
    run_jobs(jobs, workers, &mut total);
    if corpus_files == 0 && filter.is_empty() {
        total.fail("no corpus file found under tests/corpus".to_string());
        println!("no corpus file found under tests/corpus");
    }

    // Phase 2: csmith.
    let n_seeds = env_usize("WATTS_CSMITH_SEEDS", CSMITH_SEEDS.len());
    let seeds: Vec<u64> = CSMITH_SEEDS
        .iter()
        .copied()
        .chain(1000..)
        .take(n_seeds)
        .filter(|s| format!("csmith/seed-{s}").contains(&filter))
        .collect();
    if !seeds.is_empty() {
        csmith_phase(&root, &seeds, workers, budget, &mut total);
    }

    for (m, d) in &total.unsupported {
        println!(
            "skipped: {}/{} not implemented",
            Mode::ALL[*m].name(),
            DOMAINS[*d].name()
        );
    }
    println!("corpus: {} passed, {} failed", total.passed, total.failed);
    // Leave at once: a timed-out analysis may still be running on a detached thread.
    std::process::exit(if total.failed > 0 { 1 } else { 0 });
}

fn csmith_phase(root: &Path, seeds: &[u64], workers: usize, budget: Duration, total: &mut Report) {
    if !on_path("csmith") {
        common::missing("csmith (the random-program phase)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("watts-csmith-{}", std::process::id()));
    let script = root.join("tests/csmith/sweep.sh");
    let output = std::process::Command::new("bash")
        .arg(&script)
        .arg("--out")
        .arg(&dir)
        .args(seeds.iter().map(|s| s.to_string()))
        .output();
    let output = match output {
        Ok(o) => o,
        Err(e) => {
            total.fail(format!("csmith: cannot run {}: {e}", script.display()));
            println!("csmith: cannot run {}: {e}", script.display());
            return;
        }
    };
    if output.status.code() == Some(77) {
        // sweep.sh's "cannot run at all" (no csmith, no csmith.h).
        common::missing(&format!(
            "csmith: {}",
            one_line(&String::from_utf8_lossy(&output.stderr))
        ));
        return;
    }
    if !output.status.success() {
        let msg = format!(
            "csmith: sweep.sh failed ({}): {}",
            output.status,
            one_line(&String::from_utf8_lossy(&output.stderr))
        );
        println!("{msg}");
        total.fail(msg);
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut include = String::new();
    let mut ok = Vec::new();
    for line in stdout.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["include", dir] => include = dir.to_string(),
            ["ok", seed, file, line, sum, ms, lines] => ok.push(Seed {
                seed: seed.parse().unwrap_or(0),
                file: PathBuf::from(file),
                line: line.parse().unwrap_or(0),
                checksum: sum.to_string(),
                native_ms: ms.parse().unwrap_or(0),
                lines: lines.parse().unwrap_or(0),
            }),
            ["skip", seed, ..] => println!("csmith/seed-{seed}: skipped: {}", w[2..].join(" ")),
            _ => println!("csmith: unexpected output line `{line}`"),
        }
    }
    let jobs: Vec<Job> = ok
        .into_iter()
        .map(|s| {
            let include = include.clone();
            Box::new(move || check_seed(&s, &include, budget)) as Job
        })
        .collect();
    run_jobs(jobs, workers, total);
    let _ = std::fs::remove_dir_all(&dir);
}
