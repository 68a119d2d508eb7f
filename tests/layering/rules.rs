//! The rules: what the code may name (the layer table and the lists of who may use what), and
//! one function per rule that reports every violation of it over a [`Tree`].

use super::*;

/// The services every stage may name: plain data and mechanisms that know no stage.
pub(crate) const SERVICES: &[&str] = &["limits", "config", "error", "budget", "confine"];

/// What each top-level module of `src/` may name besides itself and [`SERVICES`] (`-` for no
/// services either, `*` for anything), lowest first, with the sentence a violation shows. A
/// module missing here fails the test: a new module takes its place in this table and in
/// ARCHITECTURE.md ("Code map"). `` is `lib.rs` and `main.rs`.
pub(crate) const LAYERS: &[(&str, &[&str], &str)] = &[
    ("limits", &["-"], "limits names no other module"),
    ("config", &["-", "limits"], "config names only limits"),
    ("error", &["-", "limits"], "error names only limits"),
    (
        "budget",
        &["-", "limits", "error"],
        "budget names only limits and error",
    ),
    (
        "confine",
        &["-", "limits", "config", "error"],
        "confine names only limits, config and error",
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
pub(crate) const FACTS_LAYERS: &[&str] = &["ir", "memory", "threads", "facts", "pdg"];

/// What no program-facts layer names, tests included.
pub(crate) const ABOVE_THE_FACTS: &[&str] = &[
    "", "analysis", "report", "explore", "cli", "commands", "harness", "project", "tree",
];

/// The parts of `analysis`, lowest first: a part names only the parts before it. The other
/// files directly in `analysis/` (`verdict.rs`, `invariants.rs`) are above every part, and
/// `analysis/mod.rs` (the folder's own types) is not ordered: every part may name it.
pub(crate) const ANALYSIS_PARTS: &[&str] = &["progress.rs", "sync", "engine", "compose", "races"];

/// The only files (relative to `src/`) that know the command line.
pub(crate) const COMMAND_LINE: &[&str] = &["main.rs", "cli/", "commands.rs"];

/// The crates of the command line.
pub(crate) const COMMAND_LINE_CRATES: &[&str] = &["clap", "clap_complete"];

/// The LLVM crates.
pub(crate) const LLVM_CRATES: &[&str] = &["inkwell", "llvm_sys"];

/// The only places that use serde (or a serde format crate): the file formats watts reads and
/// writes. A folder ends with `/`.
pub(crate) const SERDE_IN: &[&str] = &["report/", "witness.rs", "project/", "tree/"];

/// The serde crates.
pub(crate) const SERDE_CRATES: &[&str] = &["serde", "serde_json", "toml"];

/// The only file that reads environment variables.
pub(crate) const ENV_IN: &[&str] = &["cli/"];

/// The functions of `std::env` that read the environment.
pub(crate) const ENV_READERS: &[&str] = &["var", "var_os", "vars", "vars_os"];

/// The only files that end the process (besides clap, on a usage error or `--help`).
pub(crate) const EXIT_IN: &[&str] = &["main.rs", "error.rs"];

/// The functions of `std::process` that end it.
pub(crate) const EXITS: &[&str] = &["exit", "abort"];

/// The limits on ARCHITECTURE.md.
pub(crate) const DOC_MAX_BYTES: usize = 20 * 1024;
pub(crate) const DOC_MAX_LINE: usize = 100;

/// One broken rule: `file` names `target` (a file, a crate, a variable) at `sites`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Violation {
    pub(crate) rule: &'static str,
    pub(crate) file: String,
    pub(crate) target: String,
    /// `(line, what is wrong there)`.
    pub(crate) sites: Vec<(usize, String)>,
}

impl Violation {
    pub(crate) fn key(&self) -> (&str, &str, &str) {
        (self.rule, &self.file, &self.target)
    }

    pub(crate) fn show(&self) -> String {
        let mut s = String::new();
        for (line, what) in &self.sites {
            let _ = writeln!(s, "{}:{line}: {}: {what}", self.file, self.rule);
        }
        s
    }
}

/// A violation's key: `(rule, file, target)`.
pub(crate) type Key = (&'static str, String, String);

/// Violations keyed by `(rule, file, target)`, their sites `(line, what)` merged.
#[derive(Default)]
pub(crate) struct Findings(pub(crate) BTreeMap<Key, BTreeSet<(usize, String)>>);

impl Findings {
    pub(crate) fn add(
        &mut self,
        rule: &'static str,
        file: &str,
        target: &str,
        line: usize,
        what: String,
    ) {
        let key = (rule, file.to_string(), target.to_string());
        self.0.entry(key).or_default().insert((line, what));
    }

    pub(crate) fn into_vec(self) -> Vec<Violation> {
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
pub(crate) fn top_module(file: &str) -> Option<&str> {
    let first = in_src(file)?.split('/').next()?;
    Some(match first.strip_suffix(".rs") {
        Some("lib" | "main") => "",
        Some(m) => m,
        None => first,
    })
}

/// `file` relative to `src/`, for a file of the `watts` crate.
pub(crate) fn in_src(file: &str) -> Option<&str> {
    file.strip_prefix("src/")
}

/// Whether `file` is one of `list` (relative to `src/`; an entry ending with `/` is a folder).
pub(crate) fn listed(list: &[&str], file: &str) -> bool {
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
pub(crate) fn rule_cycle(tree: &Tree) -> Vec<Violation> {
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
pub(crate) fn strongly_connected(succ: &[BTreeSet<usize>]) -> Vec<usize> {
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
pub(crate) fn rule_layers(tree: &Tree) -> Vec<Violation> {
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
pub(crate) fn forbid_edges(
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
pub(crate) fn rule_facts_tests(tree: &Tree) -> Vec<Violation> {
    let why = "a program-facts layer names nothing above the facts, even in its tests";
    forbid_edges(tree, "facts-tests", why, true, |f, t| {
        top_module(f).is_some_and(|m| FACTS_LAYERS.contains(&m))
            && top_module(t).is_some_and(|m| ABOVE_THE_FACTS.contains(&m))
    })
}

/// Rule `analysis-parts`: a part of `analysis` names only the parts before it in
/// [`ANALYSIS_PARTS`].
pub(crate) fn rule_analysis_parts(tree: &Tree) -> Vec<Violation> {
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
pub(crate) fn rule_command_line(tree: &Tree) -> Vec<Violation> {
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
pub(crate) fn rule_llvm(tree: &Tree) -> Vec<Violation> {
    let why = "only frontend names inkwell or llvm-sys";
    forbid_crates(tree, "llvm", why, true, LLVM_CRATES, |f| {
        top_module(f) != Some("frontend")
    })
}

/// Rule `serde`: serde and its formats only in [`SERDE_IN`] (non-test code).
pub(crate) fn rule_serde(tree: &Tree) -> Vec<Violation> {
    let allowed = |file: &str| listed(SERDE_IN, file);
    let why = "serde only in the file formats (report/, witness.rs, project/, tree/)";
    forbid_crates(tree, "serde", why, false, SERDE_CRATES, |f| !allowed(f))
}

/// Reports, as `rule`, every path into one of `crates` from a file for which `applies` holds;
/// the target is the crate.
pub(crate) fn forbid_crates(
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
pub(crate) fn rule_env(tree: &Tree) -> Vec<Violation> {
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
pub(crate) fn rule_exit(tree: &Tree) -> Vec<Violation> {
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
pub(crate) fn rule_document(
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
pub(crate) fn repo_paths(line: &str) -> Vec<String> {
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
