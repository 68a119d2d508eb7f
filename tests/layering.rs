//! The invariants of ARCHITECTURE.md ("Invariants"), checked on the source text of the three
//! crates (`src/`, `domains/src/`, `rules/src/`) and on the document itself.
//!
//! The test builds the file-level import graph itself, without a parser crate: a small lexer
//! (comments and strings dropped, line numbers kept), a reader of `mod` declarations, `use`
//! trees and paths in code (`crate::a::b::C`, `super::x`, `child::f`, a name a `use` bound),
//! and a resolver that takes a path to the file defining its item, through `use` re-exports
//! (so `crate::Config` is `src/config.rs`, not `src/lib.rs`). A `mod` declaration is no edge,
//! and a `pub use` is one only when its own file's code names what it binds: a `mod.rs` that
//! declares and re-exports depends on nothing. Code under `#[cfg(test)]` (a unit-test module, a
//! `testing.rs` declared so) is read and marked, for the rules that say so.
//!
//! Each violation is reported as `file:line: rule: ...`, and keyed by `(rule, file, target)`.
//! Today's are listed, exactly, in [`KNOWN_VIOLATIONS`]; an entry that no longer occurs fails
//! the test too, so the list can only shrink. Each rule has a unit test below that feeds it a
//! small source set breaking it.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// Today's violations, `(rule, file, target)`. Each entry is removed by issue 34's work (results
/// in their layer, `ir::lib`, the cycles cut), and the list must only shrink: an entry that no
/// longer occurs fails the test (remove it), and a new violation is fixed, never added here.
const KNOWN_VIOLATIONS: &[(&str, &str, &str)] = &[
    // Debugging switches and tool paths read where they are used, not resolved by `cli`.
    (
        "env",
        "src/analysis/compose/combinations/enumeration.rs",
        "WATTS_TRACE",
    ),
    ("env", "src/analysis/sync/feasibility.rs", "WATTS_TRACE"),
    ("env", "src/explore/symbolic/mod.rs", "WATTS_SYM_DEBUG"),
    ("env", "src/explore/symbolic/solver.rs", "WATTS_Z3"),
    ("env", "src/frontend/clang.rs", "WATTS_CLANG"),
];

// ----------------------------------------------------------------------------------------
// The rules.

/// The services every stage may name: plain data and mechanisms that know no stage.
const SERVICES: &[&str] = &["config", "error", "budget", "confine"];

/// What each top-level module of `src/` may name besides itself and [`SERVICES`] (`-` for no
/// services either, `*` for anything), lowest first, with the sentence a violation shows. A
/// module missing here fails the test: a new module takes its place in this table and in
/// ARCHITECTURE.md ("Code map"). `` is `lib.rs` and `main.rs`.
const LAYERS: &[(&str, &[&str], &str)] = &[
    ("config", &["-"], "config names no other module"),
    ("error", &["-"], "error names no other module"),
    ("budget", &["-", "error"], "budget names only error"),
    (
        "confine",
        &["-", "config", "error"],
        "confine names only config and error",
    ),
    ("ir", &["-"], "ir names nothing"),
    ("memory", &["ir"], "memory names only ir"),
    (
        "threads",
        &["ir", "memory"],
        "threads names only ir and memory",
    ),
    (
        "facts",
        &["ir", "memory", "threads"],
        "facts names only the layers below it",
    ),
    (
        "pdg",
        &["ir", "memory", "threads", "facts"],
        "pdg names only the layers below it",
    ),
    ("frontend", &["ir"], "frontend names nothing above ir"),
    ("harness", &["ir"], "harness works on ir only"),
    (
        "analysis",
        &["ir", "memory", "threads", "facts", "pdg"],
        "analysis names no explore, report or harness",
    ),
    (
        "project",
        &["paths"],
        "project names only paths and the services",
    ),
    (
        "explore",
        &["ir", "witness"],
        "explore names only ir and the witness data it produces",
    ),
    (
        "report",
        &[
            "analysis", "explore", "harness", "project", "frontend", "ir", "verdicts", "witness",
            "paths",
        ],
        "report names no command line and no pipeline",
    ),
    (
        "cli",
        &["project", "tree", "paths"],
        "cli names only project, tree (the --shard option), paths and the services",
    ),
    (
        "tree",
        &["project", "frontend", "report", "paths"],
        "tree names only project, frontend, report and paths (it runs programs as child processes)",
    ),
    ("witness", &["ir"], "witness is data: it names only ir"),
    ("paths", &["-"], "paths names no other module"),
    (
        "verdicts",
        &["analysis", "explore", "witness", "ir"],
        "verdicts merges the analysis' and exploration's results, and names nothing above them",
    ),
    (
        "confirm",
        &[
            "analysis", "explore", "verdicts", "witness", "paths", "project", "ir",
        ],
        "confirm runs explore on the analysis' open verdicts; it names no report",
    ),
    (
        "replay",
        &["", "explore", "witness", "paths", "project", "ir", "report"],
        "replay rebuilds a witness's program, runs explore, and words what it found with report",
    ),
    ("commands", &["*"], ""),
    ("", &["*"], ""),
];

/// The program-facts layers: none names anything of the stages above the facts, not even in
/// its unit tests (which may compile C through `frontend`).
const FACTS_LAYERS: &[&str] = &["ir", "memory", "threads", "facts", "pdg"];

/// What no program-facts layer names, tests included.
const ABOVE_THE_FACTS: &[&str] = &[
    "", "analysis", "report", "explore", "cli", "commands", "harness", "project", "tree",
];

/// The parts of `analysis`, lowest first: a part names only the parts before it. The other
/// files directly in `analysis/` (`verdict.rs`, `invariants.rs`) are above every part, and
/// `analysis/mod.rs` (the folder's own types) is not ordered: every part may name it.
const ANALYSIS_PARTS: &[&str] = &["progress.rs", "sync", "engine", "compose", "races"];

/// The only files (relative to `src/`) that know the command line.
const COMMAND_LINE: &[&str] = &["main.rs", "cli/", "commands.rs"];

/// The crates of the command line.
const COMMAND_LINE_CRATES: &[&str] = &["clap", "clap_complete"];

/// The LLVM crates.
const LLVM_CRATES: &[&str] = &["inkwell", "llvm_sys"];

/// The only places that use serde (or a serde format crate): the file formats watts reads and
/// writes. A folder ends with `/`.
const SERDE_IN: &[&str] = &["report/", "witness.rs", "project/", "tree/"];

/// The serde crates.
const SERDE_CRATES: &[&str] = &["serde", "serde_json", "toml"];

/// The only file that reads environment variables.
const ENV_IN: &[&str] = &["cli/"];

/// The functions of `std::env` that read the environment.
const ENV_READERS: &[&str] = &["var", "var_os", "vars", "vars_os"];

/// The only files that end the process (besides clap, on a usage error or `--help`).
const EXIT_IN: &[&str] = &["main.rs", "error.rs"];

/// The functions of `std::process` that end it.
const EXITS: &[&str] = &["exit", "abort"];

/// The limits on ARCHITECTURE.md.
const DOC_MAX_BYTES: usize = 20 * 1024;
const DOC_MAX_LINE: usize = 100;

/// One broken rule: `file` names `target` (a file, a crate, a variable) at `sites`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Violation {
    rule: &'static str,
    file: String,
    target: String,
    /// `(line, what is wrong there)`.
    sites: Vec<(usize, String)>,
}

impl Violation {
    fn key(&self) -> (&str, &str, &str) {
        (self.rule, &self.file, &self.target)
    }

    fn show(&self) -> String {
        let mut s = String::new();
        for (line, what) in &self.sites {
            let _ = writeln!(s, "{}:{line}: {}: {what}", self.file, self.rule);
        }
        s
    }
}

/// A violation's key: `(rule, file, target)`.
type Key = (&'static str, String, String);

/// Violations keyed by `(rule, file, target)`, their sites `(line, what)` merged.
#[derive(Default)]
struct Findings(BTreeMap<Key, BTreeSet<(usize, String)>>);

impl Findings {
    fn add(&mut self, rule: &'static str, file: &str, target: &str, line: usize, what: String) {
        let key = (rule, file.to_string(), target.to_string());
        self.0.entry(key).or_default().insert((line, what));
    }

    fn into_vec(self) -> Vec<Violation> {
        (self.0.into_iter())
            .map(|((rule, file, target), sites)| Violation {
                rule,
                file,
                target,
                sites: sites.into_iter().collect(),
            })
            .collect()
    }
}

/// The top-level module of a file of the `watts` crate (`frontend` for
/// `src/frontend/clang.rs`, `cli` for `src/cli.rs`, `` for `src/lib.rs` and `src/main.rs`),
/// `None` outside `src/`.
fn top_module(file: &str) -> Option<&str> {
    let first = in_src(file)?.split('/').next()?;
    Some(match first.strip_suffix(".rs") {
        Some("lib" | "main") => "",
        Some(m) => m,
        None => first,
    })
}

/// `file` relative to `src/`, for a file of the `watts` crate.
fn in_src(file: &str) -> Option<&str> {
    file.strip_prefix("src/")
}

/// Whether `file` is one of `list` (relative to `src/`; an entry ending with `/` is a folder).
fn listed(list: &[&str], file: &str) -> bool {
    in_src(file).is_some_and(|r| {
        (list.iter()).any(|a| {
            if a.ends_with('/') {
                r.starts_with(a)
            } else {
                r == *a
            }
        })
    })
}

/// Rule `cycle`: no file-level import cycle in any crate. An edge to a file of an enclosing
/// module (its folder's `mod.rs`, the crate root) does not count: a file may name what its
/// folders define, as Rust's scoping lets it; every other edge between two files of one
/// strongly connected component is reported, each as its own entry.
fn rule_cycle(tree: &Tree) -> Vec<Violation> {
    let mut out = Findings::default();
    let n = tree.files.len();
    let counts = |e: &&Edge| {
        !e.test
            && tree.files[e.from].krate == tree.files[e.to].krate
            && !tree.ancestors(e.from).contains(&e.to)
    };
    let mut succ: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    for e in tree.edges.iter().filter(counts) {
        succ[e.from].insert(e.to);
    }
    let comp = strongly_connected(&succ);
    for e in tree.edges.iter().filter(counts) {
        if e.from != e.to && comp[e.from] == comp[e.to] {
            let (from, to) = (&tree.files[e.from].path, &tree.files[e.to].path);
            let members: BTreeSet<&str> = (0..n)
                .filter(|&f| comp[f] == comp[e.from])
                .map(|f| tree.files[f].path.as_str())
                .collect();
            let members: Vec<&str> = members.into_iter().collect();
            let what = format!(
                "names `{}` ({to}), in the cycle {}",
                e.name,
                members.join(", ")
            );
            out.add("cycle", from, to, e.line, what);
        }
    }
    out.into_vec()
}

/// Tarjan's strongly connected components, iteratively: the component of each node.
fn strongly_connected(succ: &[BTreeSet<usize>]) -> Vec<usize> {
    let n = succ.len();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
    let mut comp = vec![usize::MAX; n];
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, successors still to visit)
        let mut work: Vec<(usize, Vec<usize>)> = vec![(root, Vec::new())];
        let mut entering = true;
        while let Some((v, rest)) = work.last_mut() {
            let v = *v;
            if entering {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
                *rest = succ[v].iter().rev().copied().collect();
                entering = false;
            }
            let Some((_, rest)) = work.last_mut() else {
                break;
            };
            if let Some(w) = rest.pop() {
                if index[w] == usize::MAX {
                    work.push((w, Vec::new()));
                    entering = true;
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some((parent, _)) = work.last() {
                low[*parent] = low[*parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = v;
                    if w == v {
                        break;
                    }
                }
            }
        }
    }
    comp
}

/// Rule `layers`: every edge of non-test code between two top-level modules of `src/` is
/// allowed by [`LAYERS`]; an edge from or to a module missing there is reported too.
fn rule_layers(tree: &Tree) -> Vec<Violation> {
    let mut out = Findings::default();
    let row = |m: &str| LAYERS.iter().find(|(name, _, _)| *name == m);
    for e in tree.edges.iter().filter(|e| !e.test) {
        let (from, to) = (&tree.files[e.from].path, &tree.files[e.to].path);
        let (Some(a), Some(b)) = (top_module(from), top_module(to)) else {
            continue;
        };
        if a == b {
            continue;
        }
        let (why, allowed) = match (row(a), row(b)) {
            (Some((_, may, why)), Some(_)) => {
                let services = !may.contains(&"-") && SERVICES.contains(&b);
                (*why, may.contains(&"*") || may.contains(&b) || services)
            }
            _ => ("every top-level module has its row in LAYERS", false),
        };
        if !allowed {
            out.add(
                "layers",
                from,
                to,
                e.line,
                format!("{why}: names `{}` ({to})", e.name),
            );
        }
    }
    out.into_vec()
}

/// Reports, as `rule`, every edge of non-test code (of all code, with `tests`) to a file of
/// `src/` for which `banned(from, to)` holds; the target is the file named.
fn forbid_edges(
    tree: &Tree,
    rule: &'static str,
    why: &str,
    tests: bool,
    banned: impl Fn(&str, &str) -> bool,
) -> Vec<Violation> {
    let mut out = Findings::default();
    for e in tree.edges.iter().filter(|e| tests || !e.test) {
        let (from, to) = (&tree.files[e.from].path, &tree.files[e.to].path);
        if in_src(to).is_some() && banned(from, to) {
            out.add(
                rule,
                from,
                to,
                e.line,
                format!("{why}: names `{}` ({to})", e.name),
            );
        }
    }
    out.into_vec()
}

/// Rule `facts-tests`: no program-facts layer names anything of the stages above the facts,
/// even in its unit tests.
fn rule_facts_tests(tree: &Tree) -> Vec<Violation> {
    let why = "a program-facts layer names nothing above the facts, even in its tests";
    forbid_edges(tree, "facts-tests", why, true, |f, t| {
        top_module(f).is_some_and(|m| FACTS_LAYERS.contains(&m))
            && top_module(t).is_some_and(|m| ABOVE_THE_FACTS.contains(&m))
    })
}

/// Rule `analysis-parts`: a part of `analysis` names only the parts before it in
/// [`ANALYSIS_PARTS`].
fn rule_analysis_parts(tree: &Tree) -> Vec<Violation> {
    let part = |file: &str| -> Option<usize> {
        let rel = in_src(file)?.strip_prefix("analysis/")?;
        if rel == "mod.rs" {
            return None;
        }
        let first = rel.split_once('/').map_or(rel, |(p, _)| p);
        let rank = ANALYSIS_PARTS.iter().position(|x| *x == first);
        Some(rank.unwrap_or(ANALYSIS_PARTS.len()))
    };
    let why = "a part of analysis names only the parts below it";
    forbid_edges(
        tree,
        "analysis-parts",
        why,
        false,
        |f, t| matches!((part(f), part(t)), (Some(a), Some(b)) if b > a),
    )
}

/// Rule `command-line`: only [`COMMAND_LINE`] name clap or the modules of the command line
/// (tests included).
fn rule_command_line(tree: &Tree) -> Vec<Violation> {
    let binary = |file: &str| listed(COMMAND_LINE, file);
    let why = "only main.rs, cli/ and commands.rs know the command line";
    let mut v = forbid_edges(tree, "command-line", why, true, |f, t| {
        !binary(f) && binary(t)
    });
    v.extend(forbid_crates(
        tree,
        "command-line",
        why,
        true,
        COMMAND_LINE_CRATES,
        |f| !binary(f),
    ));
    v
}

/// Rule `llvm`: only `frontend` names inkwell or llvm-sys (tests included, every crate).
fn rule_llvm(tree: &Tree) -> Vec<Violation> {
    let why = "only frontend names inkwell or llvm-sys";
    forbid_crates(tree, "llvm", why, true, LLVM_CRATES, |f| {
        top_module(f) != Some("frontend")
    })
}

/// Rule `serde`: serde and its formats only in [`SERDE_IN`] (non-test code).
fn rule_serde(tree: &Tree) -> Vec<Violation> {
    let allowed = |file: &str| listed(SERDE_IN, file);
    let why = "serde only in the file formats (report/, witness.rs, project/, tree/)";
    forbid_crates(tree, "serde", why, false, SERDE_CRATES, |f| !allowed(f))
}

/// Reports, as `rule`, every path into one of `crates` from a file for which `applies` holds;
/// the target is the crate.
fn forbid_crates(
    tree: &Tree,
    rule: &'static str,
    why: &str,
    tests: bool,
    crates: &[&str],
    applies: impl Fn(&str) -> bool,
) -> Vec<Violation> {
    let mut out = Findings::default();
    for x in tree.externs.iter().filter(|x| tests || !x.test) {
        let file = &tree.files[x.file].path;
        let first = x.path[0].as_str();
        if crates.contains(&first) && applies(file) {
            out.add(
                rule,
                file,
                first,
                x.line,
                format!("{why}: names `{}`", x.path.join("::")),
            );
        }
    }
    out.into_vec()
}

/// Rule `env`: only [`ENV_IN`] reads environment variables (non-test code). The target is the
/// variable read (the string or constant passed), `?` when the call does not say.
fn rule_env(tree: &Tree) -> Vec<Violation> {
    let mut out = Findings::default();
    for x in tree.externs.iter().filter(|x| !x.test) {
        let file = &tree.files[x.file].path;
        let p: Vec<&str> = x.path.iter().map(String::as_str).collect();
        let reads = matches!(p.as_slice(), ["std", "env", f] if ENV_READERS.contains(f));
        if reads && !listed(ENV_IN, file) {
            let var = x.arg.clone().unwrap_or_else(|| "?".to_string());
            let what = format!("only cli/ reads the environment: `{}({var})`", p.join("::"));
            out.add("env", file, &var, x.line, what);
        }
    }
    out.into_vec()
}

/// Rule `exit`: only [`EXIT_IN`] end the process (non-test code): `main` returns the exit status,
/// `error::out_of_memory` ends it when memory runs out.
fn rule_exit(tree: &Tree) -> Vec<Violation> {
    let mut out = Findings::default();
    for x in tree.externs.iter().filter(|x| !x.test) {
        let file = &tree.files[x.file].path;
        let p: Vec<&str> = x.path.iter().map(String::as_str).collect();
        let exits = matches!(p.as_slice(), ["std", "process", f] if EXITS.contains(f));
        if exits && !listed(EXIT_IN, file) {
            let what = format!(
                "only main.rs and error.rs end the process: `{}`",
                p.join("::")
            );
            out.add("exit", file, p[2], x.line, what);
        }
    }
    out.into_vec()
}

/// Rule `document`: the document `name` is at most `max_bytes` long (when given), no line is
/// longer than [`DOC_MAX_LINE`] characters, and every path it names in the repository exists.
fn rule_document(
    name: &str,
    text: &str,
    max_bytes: Option<usize>,
    exists: impl Fn(&str) -> bool,
) -> Vec<Violation> {
    let mut out = Findings::default();
    if let Some(max) = max_bytes.filter(|&m| text.len() > m) {
        let what = format!("{} bytes, more than {max}", text.len());
        out.add("document", name, "size", 1, what);
    }
    for (i, line) in text.lines().enumerate() {
        let chars = line.chars().count();
        if chars > DOC_MAX_LINE {
            let what = format!("a line of {chars} characters, more than {DOC_MAX_LINE}");
            out.add("document", name, "line length", i + 1, what);
        }
        for path in repo_paths(line) {
            if !exists(&path) {
                let what = format!("names `{path}`, which does not exist");
                out.add("document", name, &path, i + 1, what);
            }
        }
    }
    out.into_vec()
}

/// The paths a line of Markdown names under `src/`, `domains/`, `rules/`, `tests/`, `benches/`
/// and `docs/` (up to the first character that is not part of a path: `*`, `{`, a space, a
/// backquote; a trailing `.` or `:` is punctuation).
fn repo_paths(line: &str) -> Vec<String> {
    let roots = ["src/", "domains/", "rules/", "tests/", "benches/", "docs/"];
    let in_path = |c: char| c.is_ascii_alphanumeric() || "_/.-".contains(c);
    let mut out = Vec::new();
    let mut prev: Option<char> = None;
    for (i, c) in line.char_indices() {
        let starts = prev.is_none_or(|p| !in_path(p));
        prev = Some(c);
        let Some(root) = roots.iter().find(|r| line[i..].starts_with(*r)) else {
            continue;
        };
        if !starts {
            continue;
        }
        let end = line[i..]
            .find(|c: char| !in_path(c))
            .map_or(line.len(), |e| i + e);
        let path = line[i..end].trim_end_matches('.');
        if path.len() > root.len() {
            out.push(path.to_string());
        }
    }
    out
}

// ----------------------------------------------------------------------------------------
// The source model: files, modules, and the import graph.

/// A source file.
struct File {
    /// Relative to the workspace: `src/frontend/clang.rs`.
    path: String,
    krate: usize,
    /// Declared under `#[cfg(test)]` (a `tests.rs`, a `testing.rs`).
    test: bool,
    /// The identifiers its code names outside `use` declarations.
    code_names: BTreeSet<String>,
}

/// A module: a file or an inline `mod x { .. }`.
struct Module {
    krate: usize,
    file: usize,
    parent: Option<usize>,
    /// Where the files of its `mod x;` children are.
    child_dir: String,
    children: BTreeMap<String, usize>,
    /// The items it defines (`fn`, `struct`, ... at its top level).
    defs: BTreeSet<String>,
    /// The names its `use` declarations bind, and the paths they bind them to.
    uses: BTreeMap<String, Vec<String>>,
    /// The paths of its glob imports.
    globs: Vec<Vec<String>>,
}

/// A crate: its root module and the names it knows other crates of the workspace by.
struct Crate {
    root: usize,
    externs: BTreeMap<String, usize>,
}

/// A path named in code or in a `use`, before resolution.
struct Named {
    file: usize,
    module: usize,
    line: usize,
    path: Vec<String>,
    test: bool,
    /// A string (or constant) passed to it, when it is called: `var("WATTS_CLANG")`.
    arg: Option<String>,
    /// How it was named.
    how: How,
}

/// How a path was named.
#[derive(Clone, Debug, PartialEq, Eq)]
enum How {
    /// In code.
    Code,
    /// By a `use` that binds `bound`; a `pub use` is `reexport`: it creates an edge only when
    /// the file's own code names `bound` (a hub that only re-exports depends on nothing).
    Use {
        bound: Option<String>,
        reexport: bool,
    },
}

/// An edge of the import graph: `from` names `name`, which is defined in `to`.
struct Edge {
    from: usize,
    to: usize,
    line: usize,
    name: String,
    test: bool,
}

/// A path into another crate (`std::env::var`, `serde::Serialize`), as resolved.
struct ExternPath {
    file: usize,
    line: usize,
    path: Vec<String>,
    test: bool,
    arg: Option<String>,
}

/// The crates of a source set and their import graph.
struct Tree {
    files: Vec<File>,
    modules: Vec<Module>,
    edges: Vec<Edge>,
    externs: Vec<ExternPath>,
    /// Files of the set that no crate root reaches through `mod` declarations.
    unreached: Vec<String>,
    /// What [`Tree::lookup`] found.
    memo: RefCell<BTreeMap<(usize, String), Option<Resolved>>>,
}

/// The crate roots of the workspace, with the names each crate knows the others by.
const CRATE_ROOTS: &[(&str, &[(&str, &str)])] = &[
    (
        "src/lib.rs",
        &[
            ("watts_domains", "domains/src/lib.rs"),
            ("watts_rules", "rules/src/lib.rs"),
        ],
    ),
    (
        "src/main.rs",
        &[
            ("watts", "src/lib.rs"),
            ("watts_domains", "domains/src/lib.rs"),
            ("watts_rules", "rules/src/lib.rs"),
        ],
    ),
    ("domains/src/lib.rs", &[]),
    ("rules/src/lib.rs", &[]),
];

impl Tree {
    /// The source set `files` (`(path, text)`), read from the roots of [`CRATE_ROOTS`] it has.
    fn new(sources: &[(String, String)]) -> Tree {
        let text: BTreeMap<&str, &str> = sources
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let mut tree = Tree {
            files: Vec::new(),
            modules: Vec::new(),
            edges: Vec::new(),
            externs: Vec::new(),
            unreached: Vec::new(),
            memo: RefCell::new(BTreeMap::new()),
        };
        let mut named = Vec::new();
        let mut crates = Vec::new();
        for (root, _) in CRATE_ROOTS {
            if text.contains_key(root) {
                let krate = crates.len();
                let dir = root.rsplit_once('/').map_or("", |(d, _)| d).to_string();
                let m = tree.add_file(root, krate, false, None, dir);
                crates.push(Crate {
                    root: m,
                    externs: BTreeMap::new(),
                });
            }
        }
        // Read every file reached through `mod` declarations, breadth first.
        let mut next = 0;
        while next < tree.files.len() {
            let file = next;
            next += 1;
            let module = (0..tree.modules.len())
                .find(|&m| {
                    tree.modules[m].file == file && {
                        let p = tree.modules[m].parent;
                        p.is_none_or(|p| tree.modules[p].file != file)
                    }
                })
                .expect("a file's module");
            let body = text[tree.files[file].path.as_str()];
            let test = tree.files[file].test;
            let decls = read_file(&mut tree, file, module, body, test, &mut named);
            for (parent, name, test) in decls {
                let dir = tree.modules[parent].child_dir.clone();
                let flat = format!("{dir}/{name}.rs");
                let nested = format!("{dir}/{name}/mod.rs");
                let path = if text.contains_key(flat.as_str()) {
                    flat
                } else if text.contains_key(nested.as_str()) {
                    nested
                } else {
                    continue; // `mod x;` of a file outside the set: nothing to read
                };
                let krate = tree.modules[parent].krate;
                let child_dir = if path.ends_with("/mod.rs") {
                    format!("{dir}/{name}")
                } else {
                    path.trim_end_matches(".rs").to_string()
                };
                let child = tree.add_file(&path, krate, test, Some(parent), child_dir);
                tree.modules[parent].children.insert(name.clone(), child);
            }
        }
        let present: Vec<&(&str, &[(&str, &str)])> = CRATE_ROOTS
            .iter()
            .filter(|(r, _)| text.contains_key(r))
            .collect();
        for (k, (_, ext)) in present.iter().enumerate() {
            for (name, other) in ext.iter() {
                if let Some(o) = present.iter().position(|(r, _)| r == other) {
                    let root = crates[o].root;
                    crates[k].externs.insert(name.to_string(), root);
                }
            }
        }
        let reached: BTreeSet<&str> = tree.files.iter().map(|f| f.path.as_str()).collect();
        tree.unreached = (text.keys())
            .filter(|p| !reached.contains(*p))
            .map(|p| p.to_string())
            .collect();
        for n in named {
            tree.resolve_named(&crates, n);
        }
        tree
    }

    /// The files of the modules that contain `file`'s module: its folder's `mod.rs`, theirs,
    /// the crate root.
    fn ancestors(&self, file: usize) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        let own = (self.modules.iter())
            .position(|m| m.file == file)
            .expect("a file's module");
        let mut m = self.modules[own].parent;
        while let Some(p) = m {
            out.insert(self.modules[p].file);
            m = self.modules[p].parent;
        }
        out.remove(&file);
        out
    }

    fn add_file(
        &mut self,
        path: &str,
        krate: usize,
        test: bool,
        parent: Option<usize>,
        child_dir: String,
    ) -> usize {
        let code_names = BTreeSet::new();
        self.files.push(File {
            path: path.to_string(),
            krate,
            test,
            code_names,
        });
        self.add_module(krate, self.files.len() - 1, parent, child_dir)
    }

    fn add_module(
        &mut self,
        krate: usize,
        file: usize,
        parent: Option<usize>,
        child_dir: String,
    ) -> usize {
        self.modules.push(Module {
            krate,
            file,
            parent,
            child_dir,
            children: BTreeMap::new(),
            defs: BTreeSet::new(),
            uses: BTreeMap::new(),
            globs: Vec::new(),
        });
        self.modules.len() - 1
    }

    /// Resolves one named path into an edge or an extern path.
    fn resolve_named(&mut self, crates: &[Crate], n: Named) {
        match self.resolve_in(crates, n.module, &n.path, 0, n.how == How::Code) {
            Resolved::Internal { module, item } => {
                let to = self.modules[module].file;
                // Binding a module's name is no dependency: the paths through it are.
                let alias = item.is_none() && matches!(&n.how, How::Use { bound: Some(_), .. });
                let unused_reexport = match &n.how {
                    How::Use {
                        bound: Some(b),
                        reexport: true,
                    } => !self.files[n.file].code_names.contains(b),
                    _ => false,
                };
                if to != n.file && !alias && !unused_reexport {
                    let name = n.path.join("::");
                    self.edges.push(Edge {
                        from: n.file,
                        to,
                        line: n.line,
                        name,
                        test: n.test,
                    });
                }
            }
            Resolved::Extern(path) => self.externs.push(ExternPath {
                file: n.file,
                line: n.line,
                path,
                test: n.test,
                arg: n.arg,
            }),
            Resolved::Local => {}
        }
    }

    /// The item `path` names from `module`: a module, an item of a module, or a path into
    /// another crate. `Local` is a name of no module (a type's associated item, a variable).
    fn resolve(&self, crates: &[Crate], module: usize, path: &[String], depth: usize) -> Resolved {
        self.resolve_in(crates, module, path, depth, false)
    }

    /// [`Tree::resolve`]; with `value`, the last segment is looked up among items before
    /// modules (`frontend::load(..)` is the function, not the module `frontend::load`).
    fn resolve_in(
        &self,
        crates: &[Crate],
        module: usize,
        path: &[String],
        depth: usize,
        value: bool,
    ) -> Resolved {
        if depth > 16 || path.is_empty() {
            return Resolved::Local;
        }
        let krate = &crates[self.modules[module].krate];
        let (mut cur, rest) = match path[0].as_str() {
            "crate" => (krate.root, &path[1..]),
            "self" => (module, &path[1..]),
            "super" => {
                let mut m = module;
                let mut i = 0;
                while path.get(i).is_some_and(|s| s == "super") {
                    m = self.modules[m].parent.unwrap_or(m);
                    i += 1;
                }
                (m, &path[i..])
            }
            "" => return Resolved::Extern(path[1..].to_vec()), // `::std::..`
            first => match self.lookup(crates, module, first, depth) {
                Some(Resolved::Internal {
                    module: m,
                    item: None,
                }) => (m, &path[1..]),
                Some(Resolved::Internal {
                    module: m,
                    item: Some(i),
                }) => {
                    return Resolved::Internal {
                        module: m,
                        item: Some(i),
                    }
                }
                Some(Resolved::Extern(mut p)) => {
                    p.extend(path[1..].iter().cloned());
                    return Resolved::Extern(p);
                }
                Some(Resolved::Local) => return Resolved::Local,
                None => match krate.externs.get(first) {
                    Some(&root) => (root, &path[1..]),
                    None if first.starts_with(|c: char| c.is_ascii_lowercase()) => {
                        return Resolved::Extern(path.to_vec())
                    }
                    None => return Resolved::Local,
                },
            },
        };
        for (i, seg) in rest.iter().enumerate() {
            if seg == "self" {
                continue;
            }
            if value && i + 1 == rest.len() && self.modules[cur].defs.contains(seg) {
                return Resolved::Internal {
                    module: cur,
                    item: Some(seg.clone()),
                };
            }
            match self.lookup(crates, cur, seg, depth) {
                Some(Resolved::Internal {
                    module: m,
                    item: None,
                }) => cur = m,
                Some(Resolved::Extern(mut p)) => {
                    p.extend(rest[i + 1..].iter().cloned());
                    return Resolved::Extern(p);
                }
                Some(found @ Resolved::Internal { .. }) => return found,
                Some(Resolved::Local) | None => {
                    return Resolved::Internal {
                        module: cur,
                        item: Some(seg.clone()),
                    }
                }
            }
        }
        Resolved::Internal {
            module: cur,
            item: None,
        }
    }

    /// What `name` is in `module`: a child module, an item it defines, a name a `use` binds
    /// there (followed), or one of its glob imports'.
    fn lookup(
        &self,
        crates: &[Crate],
        module: usize,
        name: &str,
        depth: usize,
    ) -> Option<Resolved> {
        let key = (module, name.to_string());
        if let Some(known) = self.memo.borrow().get(&key) {
            return known.clone();
        }
        // A cycle of imports (`use super::*` both ways) finds nothing on its way back.
        self.memo.borrow_mut().insert(key.clone(), None);
        let found = self.lookup_uncached(crates, module, name, depth);
        self.memo.borrow_mut().insert(key, found.clone());
        found
    }

    fn lookup_uncached(
        &self,
        crates: &[Crate],
        module: usize,
        name: &str,
        depth: usize,
    ) -> Option<Resolved> {
        let m = &self.modules[module];
        if let Some(&c) = m.children.get(name) {
            return Some(Resolved::Internal {
                module: c,
                item: None,
            });
        }
        if m.defs.contains(name) {
            return Some(Resolved::Internal {
                module,
                item: Some(name.to_string()),
            });
        }
        if let Some(path) = m.uses.get(name) {
            return Some(self.resolve(crates, module, path, depth + 1));
        }
        for glob in &m.globs {
            if let Resolved::Internal {
                module: g,
                item: None,
            } = self.resolve(crates, module, glob, depth + 1)
            {
                if g != module {
                    if let Some(found) = self.lookup(crates, g, name, depth + 1) {
                        return Some(found);
                    }
                }
            }
        }
        None
    }
}

/// What a path names.
#[derive(Clone, Debug)]
enum Resolved {
    /// A module (`item: None`) or an item defined in one.
    Internal { module: usize, item: Option<String> },
    /// A path into a crate outside the source set, fully written.
    Extern(Vec<String>),
    /// Nothing a module holds.
    Local,
}

// ----------------------------------------------------------------------------------------
// Reading a file.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    /// `::`
    PathSep,
    Punct(char),
}

struct Token {
    tok: Tok,
    line: usize,
}

impl Token {
    fn is(&self, c: char) -> bool {
        self.tok == Tok::Punct(c)
    }

    fn ident(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident(s) => Some(s),
            _ => None,
        }
    }
}

/// The tokens of `text` that matter for paths: identifiers, strings, `::` and punctuation;
/// comments, numbers, characters and lifetimes dropped.
fn lex(text: &str) -> Vec<Token> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if ch == '"' {
            let start_line = line;
            let mut s = String::new();
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    s.push(c[i]);
                    i += 1;
                }
                line += usize::from(at(i) == '\n');
                s.push(at(i));
                i += 1;
            }
            i += 1;
            out.push(Token {
                tok: Tok::Str(s),
                line: start_line,
            });
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1; // a lifetime: its name follows as an identifier, harmless
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let raw_string = (word == "r" || word == "br" || word == "cr")
                && (at(i) == '"' || (at(i) == '#' && matches!(at(i + 1), '"' | '#')));
            if raw_string {
                let start_line = line;
                let mut hashes = 0;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1; // the opening quote
                let mut s = String::new();
                while i < c.len() {
                    if c[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    line += usize::from(c[i] == '\n');
                    s.push(c[i]);
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Str(s),
                    line: start_line,
                });
            } else if (word == "b" || word == "c") && at(i) == '"' {
                // A byte or C string: its quote is read next as a string.
            } else if word == "b" && at(i) == '\'' {
                // A byte: its quote is read next as a character.
            } else if word == "r" && at(i) == '#' {
                i += 1; // a raw identifier: `r#type`
            } else {
                out.push(Token {
                    tok: Tok::Ident(word),
                    line,
                });
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(ch),
                line,
            });
            i += 1;
        }
    }
    out
}

/// The words that start an item definition followed by its name.
const DEFINES: &[&str] = &[
    "fn", "struct", "enum", "trait", "type", "const", "static", "union",
];

/// Reads one file of `module`: records its definitions, `use` bindings, inline modules and
/// named paths, and returns its `mod x;` declarations `(module, name, test)`.
fn read_file(
    tree: &mut Tree,
    file: usize,
    module: usize,
    text: &str,
    file_test: bool,
    named: &mut Vec<Named>,
) -> Vec<(usize, String, bool)> {
    let toks = lex(text);
    let mut decls = Vec::new();
    let mut depth = 0usize;
    // (module, depth of its body)
    let mut modules: Vec<(usize, usize)> = vec![(module, 0)];
    // The depth a test item started at.
    let mut test_from: Option<usize> = None;
    let mut pending_test = false;
    let mut attr_end = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let m = modules.last().expect("a module").0;
        let in_test = file_test || test_from.is_some();
        if t.is('#') && toks.get(i + 1).is_some_and(|n| n.is('[')) {
            let end = matching(&toks, i + 1);
            let inner: Vec<&Tok> = toks[i + 2..end].iter().map(|t| &t.tok).collect();
            let cfg_test = [
                Tok::Ident("cfg".into()),
                Tok::Punct('('),
                Tok::Ident("test".into()),
                Tok::Punct(')'),
            ];
            if inner.len() == 4 && inner.iter().zip(&cfg_test).all(|(a, b)| *a == b) {
                pending_test = true;
            }
            attr_end = end;
        } else if pending_test && i > attr_end && test_from.is_none() && !t.is('#') {
            test_from = Some(depth);
            pending_test = false;
            continue; // read this token again, inside the test item
        }
        let in_attr = i <= attr_end && attr_end > 0;
        match &t.tok {
            Tok::Punct('{' | '(' | '[') => depth += 1,
            Tok::Punct('}' | ')' | ']') => {
                depth = depth.saturating_sub(1);
                if t.is('}') {
                    if modules.len() > 1 && depth < modules.last().expect("module").1 {
                        modules.pop();
                    }
                    if test_from == Some(depth) {
                        test_from = None;
                    }
                }
            }
            Tok::Punct(';') if test_from == Some(depth) => test_from = None,
            Tok::Ident(w) if w == "mod" && !in_attr => {
                if let Some(name) = toks.get(i + 1).and_then(Token::ident) {
                    if toks.get(i + 2).is_some_and(|n| n.is(';')) {
                        decls.push((m, name.to_string(), in_test));
                    } else if toks.get(i + 2).is_some_and(|n| n.is('{')) {
                        let dir = format!("{}/{name}", tree.modules[m].child_dir);
                        let krate = tree.modules[m].krate;
                        let inner = tree.add_module(krate, file, Some(m), dir);
                        tree.modules[m].children.insert(name.to_string(), inner);
                        modules.push((inner, depth + 1));
                    }
                }
            }
            Tok::Ident(w) if w == "use" && !in_attr => {
                let reexport = i > 0
                    && (toks[i - 1].ident() == Some("pub") || {
                        toks[i - 1].is(')') && {
                            let open = (0..i - 1).rev().find(|&k| toks[k].is('('));
                            open.is_some_and(|k| k > 0 && toks[k - 1].ident() == Some("pub"))
                        }
                    });
                let mut leaves = Vec::new();
                let end = read_use_tree(&toks, i + 1, Vec::new(), &mut leaves);
                for (path, bound) in leaves {
                    match &bound {
                        Binding::Name(name) => {
                            tree.modules[m].uses.insert(name.clone(), path.clone());
                        }
                        Binding::Glob => tree.modules[m].globs.push(path.clone()),
                        Binding::Hidden => {}
                    }
                    let bound = match bound {
                        Binding::Name(n) => Some(n),
                        Binding::Glob | Binding::Hidden => None,
                    };
                    let how = How::Use { bound, reexport };
                    named.push(Named {
                        file,
                        module: m,
                        line: t.line,
                        path,
                        test: in_test,
                        arg: None,
                        how,
                    });
                }
                i = end;
                continue;
            }
            Tok::Ident(w)
                if DEFINES.contains(&w.as_str()) && depth == modules.last().expect("module").1 =>
            {
                if let Some(name) = toks.get(i + 1).and_then(Token::ident) {
                    if !DEFINES.contains(&name) && name != "mut" {
                        tree.modules[m].defs.insert(name.to_string());
                    }
                }
            }
            Tok::Ident(w) if w == "macro_rules" => {
                if let Some(name) = toks.get(i + 2).and_then(Token::ident) {
                    tree.modules[m].defs.insert(name.to_string());
                }
            }
            Tok::Ident(first) => {
                tree.files[file].code_names.insert(first.clone());
                let starts = i == 0 || toks[i - 1].tok != Tok::PathSep;
                if starts && toks.get(i + 1).is_some_and(|n| n.tok == Tok::PathSep) {
                    let mut path = vec![first.clone()];
                    let mut j = i + 1;
                    while toks.get(j).is_some_and(|n| n.tok == Tok::PathSep) {
                        match toks.get(j + 1).and_then(Token::ident) {
                            Some(seg) => path.push(seg.to_string()),
                            None => break,
                        }
                        j += 2;
                    }
                    let arg = match (toks.get(j), toks.get(j + 1)) {
                        (Some(open), Some(a)) if open.is('(') => match &a.tok {
                            Tok::Str(s) => Some(s.clone()),
                            Tok::Ident(s) => Some(s.clone()),
                            _ => None,
                        },
                        _ => None,
                    };
                    tree.files[file].code_names.extend(path.iter().cloned());
                    if path.len() > 1 {
                        named.push(Named {
                            file,
                            module: m,
                            line: t.line,
                            path,
                            test: in_test,
                            arg,
                            how: How::Code,
                        });
                    }
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    decls
}

/// The index of the delimiter closing the one at `open`.
fn matching(toks: &[Token], open: usize) -> usize {
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len() - 1
}

/// What a leaf of a `use` tree binds.
enum Binding {
    Name(String),
    Glob,
    /// `as _`
    Hidden,
}

/// Reads the `use` tree at `i` under `prefix`, pushing its leaves; returns the index after the
/// tree (after the `;` at the top).
fn read_use_tree(
    toks: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Binding)>,
) -> usize {
    let top = prefix.is_empty();
    if top && toks.get(i).is_some_and(|t| t.tok == Tok::PathSep) {
        prefix.push(String::new());
        i += 1;
    }
    loop {
        let Some(t) = toks.get(i) else { return i };
        match &t.tok {
            Tok::Ident(seg) => {
                prefix.push(seg.clone());
                i += 1;
                if toks.get(i).is_some_and(|n| n.tok == Tok::PathSep) {
                    i += 1;
                    continue;
                }
                let mut bound = None;
                if toks.get(i).and_then(Token::ident) == Some("as") {
                    bound = toks.get(i + 1).and_then(Token::ident).map(str::to_string);
                    i += 2;
                }
                if prefix.last().is_some_and(|s| s == "self") {
                    prefix.pop();
                }
                let name = bound.unwrap_or_else(|| prefix.last().cloned().unwrap_or_default());
                let binding = if name == "_" {
                    Binding::Hidden
                } else {
                    Binding::Name(name)
                };
                out.push((prefix, binding));
                break;
            }
            Tok::Punct('*') => {
                out.push((prefix, Binding::Glob));
                i += 1;
                break;
            }
            Tok::Punct('{') => {
                i += 1;
                while toks.get(i).is_some_and(|t| !t.is('}')) {
                    i = read_use_tree(toks, i, prefix.clone(), out);
                    if toks.get(i).is_some_and(|t| t.is(',')) {
                        i += 1;
                    }
                }
                i += 1;
                break;
            }
            _ => return i + 1,
        }
    }
    if top {
        while toks.get(i).is_some_and(|t| !t.is(';')) {
            i += 1;
        }
        i += 1;
    }
    i
}

// ----------------------------------------------------------------------------------------
// The checks on the real tree.

/// Every `.rs` file of the three crates, with its text.
fn workspace_sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["src", "domains/src", "rules/src"] {
        walk(root, &root.join(dir), &mut out);
    }
    out.sort();
    assert!(out.len() > 100, "found only {} source files", out.len());
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).expect("read dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            walk(root, &p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p
                .strip_prefix(root)
                .expect("under the root")
                .to_string_lossy();
            let text = std::fs::read_to_string(&p).expect("read source");
            out.push((rel.replace('\\', "/"), text));
        }
    }
}

/// Every rule of the code over `tree`.
fn all_rules(tree: &Tree) -> Vec<Violation> {
    let mut v = Vec::new();
    v.extend(rule_cycle(tree));
    v.extend(rule_layers(tree));
    v.extend(rule_facts_tests(tree));
    v.extend(rule_analysis_parts(tree));
    v.extend(rule_command_line(tree));
    v.extend(rule_llvm(tree));
    v.extend(rule_serde(tree));
    v.extend(rule_env(tree));
    v.extend(rule_exit(tree));
    v
}

/// Fails with every violation not in `known` and every entry of `known` that did not occur.
fn check(found: Vec<Violation>, known: &[(&str, &str, &str)]) {
    let mut msg = String::new();
    let known_set: BTreeSet<(&str, &str, &str)> = known.iter().copied().collect();
    for v in found.iter().filter(|v| !known_set.contains(&v.key())) {
        msg.push_str(&v.show());
    }
    let occurred: BTreeSet<(&str, &str, &str)> = found.iter().map(Violation::key).collect();
    for k in known.iter().filter(|k| !occurred.contains(*k)) {
        let _ = writeln!(
            msg,
            "KNOWN_VIOLATIONS lists {k:?}, which no longer occurs: remove it"
        );
    }
    assert!(msg.is_empty(), "\n{msg}");
}

#[test]
fn the_code_keeps_its_layers() {
    let tree = Tree::new(&workspace_sources());
    assert!(
        tree.unreached.is_empty(),
        "files no module declares: {:?}",
        tree.unreached
    );
    // The reader finds the graph (a broken lexer would find nothing and pass every rule).
    assert!(tree.edges.len() > 5000, "only {} edges", tree.edges.len());
    let verdict = tree
        .files
        .iter()
        .position(|f| f.path == "src/analysis/verdict.rs");
    let races = tree
        .files
        .iter()
        .position(|f| f.path == "src/analysis/races/mod.rs");
    assert!(
        tree.edges
            .iter()
            .any(|e| Some(e.from) == verdict && Some(e.to) == races),
        "src/analysis/verdict.rs names src/analysis/races/mod.rs (`races::find`)"
    );
    check(all_rules(&tree), KNOWN_VIOLATIONS);
}

#[test]
fn architecture_md_is_a_short_true_map() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for (doc, max) in [
        ("ARCHITECTURE.md", Some(DOC_MAX_BYTES)),
        ("docs/soundness.md", None),
    ] {
        let text = std::fs::read_to_string(root.join(doc)).expect("read the document");
        found.extend(rule_document(doc, &text, max, |p| root.join(p).exists()));
    }
    check(found, &[]);
}

// ----------------------------------------------------------------------------------------
// Each rule fails when broken.

fn tree_of(files: &[(&str, &str)]) -> Tree {
    let owned: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    Tree::new(&owned)
}

/// The keys of `found`, as owned strings.
fn keys(found: &[Violation]) -> Vec<(String, String, String)> {
    let mut k: Vec<(String, String, String)> = (found.iter())
        .map(|v| (v.rule.to_string(), v.file.clone(), v.target.clone()))
        .collect();
    k.sort();
    k
}

fn key(rule: &str, file: &str, target: &str) -> (String, String, String) {
    (rule.to_string(), file.to_string(), target.to_string())
}

#[test]
fn a_file_cycle_is_reported() {
    let tree = tree_of(&[
        ("src/lib.rs", "pub mod a;\npub mod b;\npub mod p;\n"),
        ("src/a.rs", "use crate::b::B;\npub struct A(pub B);\n"),
        (
            "src/b.rs",
            "pub struct B;\npub fn f() -> crate::a::A {\n    crate::a::A(B)\n}\n",
        ),
        // A folder's mod.rs and its child name each other: no cycle (the child names what its
        // folder defines).
        (
            "src/p/mod.rs",
            "mod c;\npub use c::go;\npub struct T;\npub fn run() {\n    c::go(T)\n}\n",
        ),
        ("src/p/c.rs", "use super::T;\npub fn go(_: T) {}\n"),
    ]);
    let found = rule_cycle(&tree);
    assert_eq!(
        keys(&found),
        [
            key("cycle", "src/a.rs", "src/b.rs"),
            key("cycle", "src/b.rs", "src/a.rs")
        ]
    );
    let shown: String = found.iter().map(Violation::show).collect();
    assert!(shown.contains("src/a.rs:1: cycle: names `crate::b::B` (src/b.rs), in the cycle"));
    assert!(shown.contains("src/b.rs:3: cycle: names `crate::a::A`"));
    assert!(shown.contains("in the cycle src/a.rs, src/b.rs"));
}

#[test]
fn a_cycle_through_a_reexport_is_the_defining_files() {
    let tree = tree_of(&[
        ("src/lib.rs", "pub mod b;\npub mod p;\n"),
        (
            "src/b.rs",
            "pub struct B;\npub fn f() {\n    crate::p::go()\n}\n",
        ),
        // The hub only declares and re-exports: the cycle is `b.rs` and `p/c.rs`.
        ("src/p/mod.rs", "mod c;\npub use c::go;\n"),
        ("src/p/c.rs", "pub fn go() {\n    let _ = crate::b::B;\n}\n"),
    ]);
    assert_eq!(
        keys(&rule_cycle(&tree)),
        [
            key("cycle", "src/b.rs", "src/p/c.rs"),
            key("cycle", "src/p/c.rs", "src/b.rs")
        ]
    );
}

#[test]
fn an_upward_edge_is_reported() {
    let tree = tree_of(&[
        (
            "src/lib.rs",
            "pub mod analysis;\npub mod config;\npub mod explore;\npub mod frontend;\n\
             pub mod ir;\npub mod limits;\npub mod report;\npub use config::Config;\n",
        ),
        (
            "src/frontend/mod.rs",
            "use crate::ir::Program;\npub fn f(_: &crate::Config, _: Program) -> String {\n    \
             crate::report::plural(2)\n}\n",
        ),
        ("src/ir/mod.rs", "pub struct Program;\n"),
        ("src/config.rs", "pub struct Config;\n"),
        (
            "src/report/mod.rs",
            "pub fn plural(_: usize) -> String {\n    String::new()\n}\n",
        ),
        (
            "src/analysis/mod.rs",
            "pub struct V {\n    pub w: crate::explore::witness::Witness,\n}\n\
             pub const L: u32 = crate::limits::MAX;\n",
        ),
        ("src/explore/mod.rs", "pub mod witness;\n"),
        ("src/explore/witness.rs", "pub struct Witness;\n"),
        ("src/limits.rs", "pub const MAX: u32 = 1;\n"),
    ]);
    let found = rule_layers(&tree);
    assert_eq!(
        keys(&found),
        [
            key("layers", "src/analysis/mod.rs", "src/explore/witness.rs"),
            key("layers", "src/analysis/mod.rs", "src/limits.rs"),
            key("layers", "src/frontend/mod.rs", "src/report/mod.rs"),
        ]
    );
    let shown: String = found.iter().map(Violation::show).collect();
    assert!(shown.contains("src/frontend/mod.rs:3: layers: frontend names nothing above ir"));
    assert!(shown.contains("analysis names no explore, report or harness"));
    assert!(shown.contains("every top-level module has its row in LAYERS"));
}

#[test]
fn the_facts_layers_name_nothing_above_even_in_tests() {
    let tree = tree_of(&[
        (
            "src/lib.rs",
            "pub mod analysis;\npub mod frontend;\npub mod memory;\npub mod threads;\n",
        ),
        (
            "src/memory/mod.rs",
            "pub fn f() -> crate::threads::T {\n    todo!()\n}\n#[cfg(test)]\nmod tests {\n    \
             fn t() {\n        crate::frontend::load();\n        crate::analysis::run();\n    \
             }\n}\n",
        ),
        ("src/analysis/mod.rs", "pub fn run() {}\n"),
        ("src/frontend/mod.rs", "pub fn load() {}\n"),
        ("src/threads/mod.rs", "pub struct T;\n"),
    ]);
    assert_eq!(
        keys(&rule_layers(&tree)),
        [key("layers", "src/memory/mod.rs", "src/threads/mod.rs")]
    );
    // The test may compile C (`frontend`), not run the analysis.
    assert_eq!(
        keys(&rule_facts_tests(&tree)),
        [key(
            "facts-tests",
            "src/memory/mod.rs",
            "src/analysis/mod.rs"
        )]
    );
}

#[test]
fn the_parts_of_analysis_keep_their_order() {
    let tree = tree_of(&[
        ("src/lib.rs", "pub mod analysis;\n"),
        (
            "src/analysis/mod.rs",
            "pub mod compose;\npub mod engine;\npub mod sync;\nmod verdict;\npub struct Status;\n",
        ),
        ("src/analysis/sync/mod.rs", "pub fn f() -> crate::analysis::engine::State {\n    todo!()\n}\n"),
        ("src/analysis/engine/mod.rs", "pub struct State;\n"),
        (
            "src/analysis/compose/mod.rs",
            "use super::Status;\nuse super::engine::State;\npub fn run(_: Status, _: State) {\n    \
             super::verdict::note()\n}\n",
        ),
        ("src/analysis/verdict.rs", "pub fn note() {}\n"),
    ]);
    assert_eq!(
        keys(&rule_analysis_parts(&tree)),
        [
            key(
                "analysis-parts",
                "src/analysis/compose/mod.rs",
                "src/analysis/verdict.rs"
            ),
            key(
                "analysis-parts",
                "src/analysis/sync/mod.rs",
                "src/analysis/engine/mod.rs"
            ),
        ]
    );
}

#[test]
fn only_the_binary_modules_know_the_command_line() {
    let tree = tree_of(&[
        (
            "src/lib.rs",
            "pub mod cli;\npub mod commands;\npub mod report;\n",
        ),
        ("src/cli/mod.rs", "use clap::Parser;\npub struct Cli;\n"),
        (
            "src/commands.rs",
            "use crate::cli::Cli;\npub fn run(_: Cli) {}\n",
        ),
        (
            "src/report/mod.rs",
            "use clap::ValueEnum;\npub fn f(_: crate::cli::Cli) {}\n",
        ),
    ]);
    assert_eq!(
        keys(&rule_command_line(&tree)),
        [
            key("command-line", "src/report/mod.rs", "clap"),
            key("command-line", "src/report/mod.rs", "src/cli/mod.rs"),
        ]
    );
}

#[test]
fn only_the_front_end_names_llvm() {
    let tree = tree_of(&[
        ("src/lib.rs", "pub mod analysis;\npub mod frontend;\n"),
        ("src/frontend/mod.rs", "use inkwell::module::Module;\n"),
        ("src/analysis/mod.rs", "use inkwell::context::Context;\n"),
        (
            "domains/src/lib.rs",
            "pub fn f(_: llvm_sys::prelude::LLVMModuleRef) {}\n",
        ),
    ]);
    assert_eq!(
        keys(&rule_llvm(&tree)),
        [
            key("llvm", "domains/src/lib.rs", "llvm_sys"),
            key("llvm", "src/analysis/mod.rs", "inkwell"),
        ]
    );
}

#[test]
fn serde_is_only_in_the_file_formats() {
    let tree = tree_of(&[
        ("src/lib.rs", "pub mod analysis;\npub mod report;\nfn w() {\n    let _ = serde_json::to_string(&1);\n}\n"),
        (
            "src/analysis/mod.rs",
            "#[derive(serde::Serialize)]\npub struct S;\n#[cfg(test)]\nmod tests {\n    \
             fn t() {\n        let _ = serde_json::json!({});\n    }\n}\n",
        ),
        ("src/report/mod.rs", "mod json;\n"),
        ("src/report/json.rs", "use serde::Serialize;\n"),
    ]);
    assert_eq!(
        keys(&rule_serde(&tree)),
        [
            key("serde", "src/analysis/mod.rs", "serde"),
            key("serde", "src/lib.rs", "serde_json")
        ]
    );
}

#[test]
fn only_cli_reads_the_environment() {
    let tree = tree_of(&[
        ("src/lib.rs", "pub mod analysis;\npub mod cli;\npub mod frontend;\n"),
        ("src/cli/mod.rs", "fn f() {\n    let _ = std::env::var_os(\"NO_COLOR\");\n}\n"),
        (
            "src/frontend/mod.rs",
            "fn f() {\n    // std::env::var(\"IN_A_COMMENT\")\n    let _ = \"std::env::var\";\n    \
             let _ = std::env::var_os(\"WATTS_CLANG\");\n}\n",
        ),
        (
            "src/analysis/mod.rs",
            "use std::env;\nconst TRACE: &str = \"WATTS_TRACE\";\nfn g() {\n    \
             let _ = env::var(TRACE);\n    let _ = std::env::current_dir();\n}\n",
        ),
        // A crate's own module called `env` is not the environment.
        ("domains/src/lib.rs", "mod env;\npub use env::IntervalEnv;\nfn f() {\n    let _ = crate::env::var();\n}\n"),
        ("domains/src/env.rs", "pub struct IntervalEnv;\npub fn var() {}\n"),
    ]);
    assert_eq!(
        keys(&rule_env(&tree)),
        [
            key("env", "src/analysis/mod.rs", "TRACE"),
            key("env", "src/frontend/mod.rs", "WATTS_CLANG")
        ]
    );
}

#[test]
fn only_main_and_error_end_the_process() {
    let tree = tree_of(&[
        ("src/lib.rs", "pub mod error;\npub mod report;\n"),
        (
            "src/main.rs",
            "fn main() {\n    std::process::exit(watts::run());\n}\n",
        ),
        (
            "src/error.rs",
            "pub fn out_of_memory() -> ! {\n    std::process::exit(3)\n}\n",
        ),
        (
            "src/report/mod.rs",
            "use std::process;\npub fn f() {\n    process::abort();\n}\n",
        ),
    ]);
    assert_eq!(
        keys(&rule_exit(&tree)),
        [key("exit", "src/report/mod.rs", "abort")]
    );
}

#[test]
fn the_document_stays_a_short_true_map() {
    let mut text = format!(
        "{}\nSee `src/nope.rs`, `src/lib.rs` and src/analysis/.\n",
        "x".repeat(101)
    );
    while text.len() <= DOC_MAX_BYTES {
        text.push_str("A sentence of the map, short enough to keep on one line of it.\n");
    }
    let exists = |p: &str| p == "src/lib.rs" || p == "src/analysis/";
    let found = rule_document("ARCHITECTURE.md", &text, Some(DOC_MAX_BYTES), exists);
    assert_eq!(
        keys(&found),
        [
            key("document", "ARCHITECTURE.md", "line length"),
            key("document", "ARCHITECTURE.md", "size"),
            key("document", "ARCHITECTURE.md", "src/nope.rs"),
        ]
    );
    assert!(found
        .iter()
        .any(|v| v.show().starts_with("ARCHITECTURE.md:2: document: names")));
}

#[test]
fn the_known_violations_cannot_go_stale() {
    let v = Violation {
        rule: "cycle",
        file: "src/a.rs".to_string(),
        target: "src/b.rs".to_string(),
        sites: vec![(1, "names `crate::b::B`".to_string())],
    };
    check(vec![v.clone()], &[("cycle", "src/a.rs", "src/b.rs")]);
    // Not listed: reported.
    assert!(std::panic::catch_unwind(|| check(vec![v.clone()], &[])).is_err());
    // Listed and gone: reported too.
    assert!(
        std::panic::catch_unwind(|| check(vec![], &[("cycle", "src/a.rs", "src/b.rs")])).is_err()
    );
}

#[test]
fn every_file_is_declared_by_a_module() {
    let tree = tree_of(&[
        ("src/lib.rs", "mod a;\n"),
        ("src/a.rs", ""),
        ("src/orphan.rs", ""),
    ]);
    assert_eq!(tree.unreached, ["src/orphan.rs"]);
}

#[test]
fn the_reader_skips_comments_and_strings_and_marks_tests() {
    let tree = tree_of(&[
        ("src/lib.rs", "pub mod a;\npub mod b;\n"),
        (
            "src/a.rs",
            "// crate::b::B\n/* crate::b::B /* nested */ crate::b::B */\n\
             const S: &str = \"crate::b::B \\\" crate::b::B\";\nconst R: &str = r#\"crate::b::B\"#;\n\
             const C: char = '\"';\n#[cfg(test)]\nmod tests {\n    fn t() { let _ = crate::b::B; }\n}\n\
             pub fn f<'a>(_: &'a str) -> u8 {\n    crate::b::g()\n}\n",
        ),
        ("src/b.rs", "pub struct B;\npub fn g() -> u8 {\n    0\n}\n"),
    ]);
    let edges: Vec<(usize, &str, bool)> = (tree.edges.iter())
        .filter(|e| tree.files[e.from].path == "src/a.rs")
        .map(|e| (e.line, e.name.as_str(), e.test))
        .collect();
    assert_eq!(
        edges,
        [(8, "crate::b::B", true), (11, "crate::b::g", false)]
    );
}

#[test]
fn paths_resolve_to_the_file_that_defines_the_item() {
    let tree = tree_of(&[
        (
            "src/lib.rs",
            "pub mod config;\npub mod f;\npub use config::Config;\nfn x(_: crate::Config) {\n    \
             f::load();\n    f::load::go();\n}\n",
        ),
        ("src/config.rs", "pub struct Config;\n"),
        (
            "src/f/mod.rs",
            "pub mod load;\npub fn load() {\n    load::go()\n}\n",
        ),
        ("src/f/load.rs", "pub fn go() {}\n"),
    ]);
    let edges: Vec<(usize, &str, &str)> = (tree.edges.iter())
        .filter(|e| tree.files[e.from].path == "src/lib.rs")
        .map(|e| (e.line, e.name.as_str(), tree.files[e.to].path.as_str()))
        .collect();
    assert_eq!(
        edges,
        [
            // The `pub use` is an edge: the file's own code names `Config`.
            (3, "config::Config", "src/config.rs"),
            (4, "crate::Config", "src/config.rs"),
            (5, "f::load", "src/f/mod.rs"),
            (6, "f::load::go", "src/f/load.rs"),
        ]
    );
}
