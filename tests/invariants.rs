//! `watts invariants` never contradicts a verdict (issue 18, point 5): for every program of the
//! annotated corpus (`tests/corpus/**/*.c`, with its `//PARAM:` lines) and every assertion that
//! `analyze` proves, the invariant shown on the assertion's line, in every thread that lists
//! the line, allows the condition.
//!
//! What a line shows for a variable the condition names: a local's range before the line, and
//! for memory the line loads, the values the load reads there (what the condition is evaluated
//! on). So for a simple condition (`x <= 1`, `x == c`, `x < y`, `!x`; such comparisons joined
//! by `&&` are checked one by one, and by `||` some value must satisfy some part):
//! - a comparison of one variable with a constant by `<=`, `<`, `>=`, `>` or `==` holds for
//!   *every* value of the range shown (the proof showed it for every value it kept, and the
//!   range is what it kept, the join over the states it used: these conditions are convex, so
//!   the join keeps them);
//! - `x != c` and comparisons of two variables allow *some* value of the ranges (a join of
//!   states that each exclude `c` may contain `c`; two ranges lose the relation between them).
//!
//! Conditions of another form, and names the line does not show (a variable loaded on the next
//! line of a multi-line `assert`), are skipped and counted; the counts are printed, so that the
//! test is visibly not vacuous, and a minimum number of checks is required.
//!
//! Run with `cargo test --release --test invariants`. Environment:
//! - `WATTS_CORPUS_FILTER=substring`: only files whose path contains the substring.
//!
//! Every mode × domain the file allows is checked (the whole corpus takes seconds).

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use common::params::{Params, DOMAINS};
use watts::analysis::invariants::{Invariants, LineInvariant};
use watts::analysis::{AssertVerdict, NamedRange};
use watts::ir::{CValue, Program};
use watts::{Config, DomainKind, Mode};

/// Fewest (assertion, thread) pairs whose condition must be checked over the whole corpus:
/// well below today's count (about 2,000), far above zero.
const MIN_CHECKED: usize = 1000;

fn main() {
    let filter = std::env::var("WATTS_CORPUS_FILTER").ok();
    let configs: Vec<(Mode, DomainKind)> = (DOMAINS.iter())
        .flat_map(|d| Mode::ALL.iter().map(move |m| (*m, *d)))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files = Vec::new();
    collect_c_files(&root, &mut files);
    files.sort();
    files.retain(|f| {
        filter
            .as_deref()
            .is_none_or(|s| f.to_string_lossy().contains(s))
    });
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(PathBuf, Tally)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            let worker = || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = files.get(i) else { break };
                let tally = check_file(path, &root, &configs);
                results.lock().unwrap().push((path.clone(), tally));
            };
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, worker)
                .expect("a worker thread");
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut total = Tally::default();
    for (_, t) in results {
        for line in &t.failures {
            println!("{line}");
        }
        total.add(t);
    }
    println!(
        "invariants: {} files, {} proved assertions in {} configurations; {} (assertion, thread) \
         pairs checked ({} for every value, {} for some value), {} skipped (condition not of a \
         simple form: {}, a name the line does not show: {}); {} contradictions",
        files.len(),
        total.proved,
        configs.len(),
        total.every + total.some,
        total.every,
        total.some,
        total.not_simple + total.not_shown,
        total.not_simple,
        total.not_shown,
        total.failures.len()
    );
    let enough = filter.is_some() || total.every + total.some >= MIN_CHECKED;
    if !total.failures.is_empty() || !enough {
        if !enough {
            println!("invariants: fewer than {MIN_CHECKED} checks: the test checks too little");
        }
        std::process::exit(1);
    }
}

fn collect_c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_c_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "c") {
            out.push(p);
        }
    }
}

/// What the checks of one or more files found.
#[derive(Default)]
struct Tally {
    proved: usize,
    /// Checked for every value of the range shown.
    every: usize,
    /// Checked for some value.
    some: usize,
    not_simple: usize,
    not_shown: usize,
    failures: Vec<String>,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.proved += o.proved;
        self.every += o.every;
        self.some += o.some;
        self.not_simple += o.not_simple;
        self.not_shown += o.not_shown;
        self.failures.extend(o.failures);
    }
}

fn check_file(path: &Path, root: &Path, configs: &[(Mode, DomainKind)]) -> Tally {
    let mut t = Tally::default();
    let shown = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    let text = std::fs::read_to_string(path).expect("read a corpus file");
    let params = match Params::of_file(&text) {
        Ok(p) => p,
        Err(errors) => {
            t.failures
                .extend(errors.iter().map(|e| format!("{shown}:{e}")));
            return t;
        }
    };
    let config = |mode, domain| {
        let mut c = Config::new(vec![path.to_path_buf()]);
        c.clang_args = params.clang_args.clone();
        c.harness = Some(params.harness.clone()).filter(|h| h.is_active());
        c.assume_no_write = params.assume_no_write.clone();
        c.mode = mode;
        c.domain = domain;
        c
    };
    let program = match watts::load_program(&config(Mode::Optimized, DomainKind::Interval)) {
        Ok(p) => p,
        Err(e) => {
            t.failures.push(format!("{shown}: front end: {e}"));
            return t;
        }
    };
    for &(mode, domain) in configs {
        if !params.modes.contains(&mode) || !params.domains.contains(&domain) {
            continue;
        }
        let tag = format!("[{}/{}]", mode.name(), domain.name());
        let c = config(mode, domain);
        let outcome = watts::analysis::analyze(&program, &c);
        let inv = watts::analysis::invariants::compute(&program, &c);
        let (outcome, inv) = match (outcome, inv) {
            (Ok(o), Ok(i)) => (o, i),
            (Err(e), _) | (_, Err(e)) => {
                t.failures.push(format!("{shown}: {e} {tag}"));
                continue;
            }
        };
        for v in &outcome.verdicts {
            if !matches!(v.verdict, AssertVerdict::Proved { .. }) {
                continue;
            }
            t.proved += 1;
            check_assertion(&program, &inv, v.id.index(), &shown, &tag, &mut t);
        }
    }
    t
}

/// Checks proved assertion `id` against every thread that shows its line.
fn check_assertion(
    program: &Program,
    inv: &Invariants,
    id: usize,
    shown: &str,
    tag: &str,
    t: &mut Tally,
) {
    let info = &program.asserts[id];
    let Some(span) = info.span else { return };
    let Some(file) = program.files.get(span.file.0 as usize) else {
        return;
    };
    let Some(cond) = Condition::parse(&info.condition) else {
        t.not_simple += 1;
        return;
    };
    let func = &program.funcs[info.func.index()].name;
    let mut listed = false;
    for thread in &inv.threads {
        let Some(line) = (thread.lines.iter())
            .find(|l| l.file == file.path && l.line == span.line && l.functions.contains(func))
        else {
            continue;
        };
        listed = true;
        let at = format!(
            "{shown}:{}: thread {}: proved `{}`",
            span.line, thread.name, info.condition
        );
        match cond.check(line) {
            Check::NotShown => t.not_shown += 1,
            Check::Every(Ok(())) => t.every += 1,
            Check::Some(Ok(())) => t.some += 1,
            Check::Every(Err(shows)) => t
                .failures
                .push(format!("{at}, but the invariant shows {shows} {tag}")),
            Check::Some(Err(shows)) => t
                .failures
                .push(format!("{at}, but the invariant shows {shows} {tag}")),
        }
    }
    if !listed {
        t.failures.push(format!(
            "{shown}:{}: proved `{}`, but no thread's invariants list the line {tag}",
            span.line, info.condition
        ));
    }
}

/// One side of a comparison.
#[derive(Clone, Debug, PartialEq)]
enum Atom {
    Name(String),
    Const(i128),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Le,
    Lt,
    Ge,
    Gt,
    Eq,
    Ne,
}

impl Op {
    fn flip(self) -> Op {
        match self {
            Op::Le => Op::Ge,
            Op::Lt => Op::Gt,
            Op::Ge => Op::Le,
            Op::Gt => Op::Lt,
            Op::Eq | Op::Ne => self,
        }
    }

    fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Op::Le => a <= b,
            Op::Lt => a < b,
            Op::Ge => a >= b,
            Op::Gt => a > b,
            Op::Eq => a == b,
            Op::Ne => a != b,
        }
    }
}

/// A comparison `a op b`, with `x` read as `x != 0` and `!x` as `x == 0`.
#[derive(Debug)]
struct Cmp {
    a: Atom,
    op: Op,
    b: Atom,
}

/// A condition of a simple form: comparisons joined by `&&` only, or by `||` only.
#[derive(Debug)]
enum Condition {
    /// Every part holds: each is checked as a condition of its own.
    All(Vec<Cmp>),
    /// Some part holds: some value of the ranges satisfies some part.
    Any(Vec<Cmp>),
}

/// The outcome of one check: `Err` says what the line shows.
enum Check {
    NotShown,
    Every(Result<(), String>),
    Some(Result<(), String>),
}

/// The values of a range shown, as C values (one range, or two for an unsigned range that
/// crosses zero in two's complement).
type Ranges = Vec<(i128, i128)>;

impl Condition {
    fn parse(text: &str) -> Option<Condition> {
        let and = split_top(text, "&&");
        let or = split_top(text, "||");
        match (and.len() > 1, or.len() > 1) {
            (true, true) => None,
            (false, true) => Some(Condition::Any(
                or.iter().map(|p| Cmp::parse(p)).collect::<Option<_>>()?,
            )),
            _ => Some(Condition::All(
                and.iter().map(|p| Cmp::parse(p)).collect::<Option<_>>()?,
            )),
        }
    }

    fn check(&self, line: &LineInvariant) -> Check {
        match self {
            Condition::All(parts) => {
                let mut every = false;
                let mut some = false;
                for p in parts {
                    match p.check(line) {
                        Check::NotShown => {}
                        Check::Every(Ok(())) => every = true,
                        Check::Some(Ok(())) => some = true,
                        failed => return failed,
                    }
                }
                match (every, some) {
                    (true, _) => Check::Every(Ok(())),
                    (false, true) => Check::Some(Ok(())),
                    (false, false) => Check::NotShown,
                }
            }
            Condition::Any(parts) => {
                let mut shows = Vec::new();
                for p in parts {
                    match p.allows_some(line) {
                        None => return Check::NotShown,
                        Some(Ok(())) => return Check::Some(Ok(())),
                        Some(Err(s)) => shows.push(s),
                    }
                }
                shows.dedup();
                Check::Some(Err(format!("{}: no value satisfies it", shows.join(", "))))
            }
        }
    }
}

impl Cmp {
    fn parse(text: &str) -> Option<Cmp> {
        let tokens = tokens(text)?;
        let atom = |t: &[Token]| -> Option<Atom> {
            match t {
                [Token::Name(n)] => Some(Atom::Name(n.clone())),
                [Token::Num(v)] => Some(Atom::Const(*v)),
                [Token::Minus, Token::Num(v)] => Some(Atom::Const(-*v)),
                _ => None,
            }
        };
        let ops: Vec<usize> = (tokens.iter().enumerate())
            .filter(|(_, t)| matches!(t, Token::Op(_)))
            .map(|(i, _)| i)
            .collect();
        match ops[..] {
            [] => match &tokens[..] {
                [Token::Not, rest @ ..] => Some(Cmp {
                    a: atom(rest)?,
                    op: Op::Eq,
                    b: Atom::Const(0),
                }),
                _ => Some(Cmp {
                    a: atom(&tokens)?,
                    op: Op::Ne,
                    b: Atom::Const(0),
                }),
            },
            [i] => {
                let Token::Op(op) = tokens[i] else {
                    return None;
                };
                Some(Cmp {
                    a: atom(&tokens[..i])?,
                    op,
                    b: atom(&tokens[i + 1..])?,
                })
            }
            _ => None,
        }
    }

    /// The ranges of both sides on `line`, and what the line shows of the named ones.
    fn ranges(&self, line: &LineInvariant) -> Option<(Ranges, Ranges, String)> {
        if self.a == self.b || matches!((&self.a, &self.b), (Atom::Const(_), Atom::Const(_))) {
            return None;
        }
        let mut shows = Vec::new();
        let mut side = |atom: &Atom| -> Option<Ranges> {
            match atom {
                Atom::Const(c) => Some(vec![(*c, *c)]),
                Atom::Name(n) => {
                    let v = shown_value(line, n)?;
                    shows.push(format!("{} ∈ {}", v.name, show(v)));
                    c_ranges(v)
                }
            }
        };
        let a = side(&self.a)?;
        let b = side(&self.b)?;
        Some((a, b, shows.join(", ")))
    }

    /// A comparison of one variable with a constant by `<=`, `<`, `>=`, `>` or `==` holds for
    /// every value shown (the condition is convex: a join of states where it holds keeps it);
    /// any other comparison allows some value.
    fn check(&self, line: &LineInvariant) -> Check {
        let Some((a, b, shows)) = self.ranges(line) else {
            return Check::NotShown;
        };
        let verdict = |ok: bool| if ok { Ok(()) } else { Err(shows.clone()) };
        let constant = match (&self.a, &self.b) {
            (Atom::Name(_), Atom::Const(c)) => Some((&a, self.op, *c)),
            (Atom::Const(c), Atom::Name(_)) => Some((&b, self.op.flip(), *c)),
            _ => None,
        };
        match constant {
            Some((x, op, c)) if op != Op::Ne => Check::Every(verdict(
                x.iter().all(|&(lo, hi)| op.holds(lo, c) && op.holds(hi, c)),
            )),
            _ => Check::Some(match verdict(some_pair(&a, self.op, &b)) {
                Ok(()) => Ok(()),
                Err(s) => Err(format!("{s}: no value satisfies it")),
            }),
        }
    }

    /// Whether some values of the ranges satisfy it (`None`: a name not shown); `Err` says
    /// what the line shows.
    fn allows_some(&self, line: &LineInvariant) -> Option<Result<(), String>> {
        let (a, b, shows) = self.ranges(line)?;
        Some(if some_pair(&a, self.op, &b) {
            Ok(())
        } else {
            Err(shows)
        })
    }
}

/// Whether some value of `a` and some value of `b` satisfy `a op b`.
fn some_pair(a: &Ranges, op: Op, b: &Ranges) -> bool {
    a.iter().any(|&(alo, ahi)| {
        b.iter().any(|&(blo, bhi)| match op {
            Op::Le => alo <= bhi,
            Op::Lt => alo < bhi,
            Op::Ge => ahi >= blo,
            Op::Gt => ahi > blo,
            Op::Eq => alo <= bhi && blo <= ahi,
            Op::Ne => !(alo == ahi && blo == bhi && alo == blo),
        })
    })
}

/// The parts of `text` between top-level occurrences of `sep` (outside parentheses), with the
/// parentheses around the whole removed first.
fn split_top<'a>(text: &'a str, sep: &str) -> Vec<&'a str> {
    let text = strip_parens(text);
    let mut parts = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0, 0);
    let b = text.as_bytes();
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ if depth == 0 && text[i..].starts_with(sep) => {
                parts.push(&text[start..i]);
                i += sep.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&text[start..]);
    parts
}

/// `text` without the parentheses around the whole of it.
fn strip_parens(text: &str) -> &str {
    let mut s = text.trim();
    while s.starts_with('(') && s.ends_with(')') && balanced(&s[1..s.len() - 1]) {
        s = s[1..s.len() - 1].trim();
    }
    s
}

/// The value a line shows for `name`: a local of that name, or a variable of one of the line's
/// functions whose address is taken (shown as `func::name`).
fn shown_value<'a>(line: &'a LineInvariant, name: &str) -> Option<&'a NamedRange> {
    let local = |v: &&NamedRange| {
        (line.functions.iter())
            .any(|f| v.name.strip_prefix(f.as_str()) == Some(&format!("::{name}")))
    };
    (line.values.iter().find(|v| v.name == name)).or_else(|| line.values.iter().find(local))
}

/// The C values of a range shown (`None`: empty, or an unsigned value past `i128`).
fn c_ranges(v: &NamedRange) -> Option<Ranges> {
    let Some(ty) = v.ty else {
        return (!v.range.is_bottom()).then(|| vec![(v.range.lo(), v.range.hi())]);
    };
    let value = |c: CValue| match c {
        CValue::Signed(x) => Some(x),
        CValue::Unsigned(x) => i128::try_from(x).ok(),
    };
    (ty.ranges(&v.range)?.into_iter())
        .map(|(lo, hi)| Some((value(lo)?, value(hi)?)))
        .collect()
}

/// A range as `watts invariants` shows it.
fn show(v: &NamedRange) -> String {
    match v.ty {
        Some(ty) => ty.show(&v.range),
        None => format!("[{}, {}]", v.range.lo(), v.range.hi()),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Name(String),
    Num(i128),
    Op(Op),
    Not,
    Minus,
}

/// The tokens of a condition made only of names (`dev.count` included), integer literals,
/// one comparison, `!` and a minus sign; `None` for anything else (arithmetic, calls, `&&`).
fn tokens(text: &str) -> Option<Vec<Token>> {
    let s = strip_parens(text);
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let two = b.get(i..i + 2);
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            out.push(Token::Name(s[start..i].to_string()));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let lit = s[start..i].trim_end_matches(['u', 'U', 'l', 'L']);
            let v = match lit.strip_prefix("0x").or_else(|| lit.strip_prefix("0X")) {
                Some(hex) => i128::from_str_radix(hex, 16).ok()?,
                None if lit.len() > 1 && lit.starts_with('0') => {
                    i128::from_str_radix(lit, 8).ok()?
                }
                None => lit.parse().ok()?,
            };
            out.push(Token::Num(v));
        } else if let Some(op) = two.and_then(|t| match t {
            b"<=" => Some(Op::Le),
            b">=" => Some(Op::Ge),
            b"==" => Some(Op::Eq),
            b"!=" => Some(Op::Ne),
            _ => None,
        }) {
            out.push(Token::Op(op));
            i += 2;
        } else if two == Some(b"<<") || two == Some(b">>") || two == Some(b"->") {
            return None;
        } else {
            out.push(match c {
                b'<' => Token::Op(Op::Lt),
                b'>' => Token::Op(Op::Gt),
                b'!' => Token::Not,
                b'-' => Token::Minus,
                _ => return None,
            });
            i += 1;
        }
    }
    Some(out)
}

fn balanced(s: &str) -> bool {
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}
