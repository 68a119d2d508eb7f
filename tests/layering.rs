//! The layering rules of ARCHITECTURE.md ("Layering"), checked on the source text: a module
//! may name only the layers below it. A violation names the file, the line and the rule.
//!
//! Paths are read as written (`crate::x`, `super::x`, `watts::x`, `use x`), which is how every
//! module here refers to another; unit-test code (a file's trailing `#[cfg(test)] mod`, and
//! `testing.rs` files) is checked by the rules that say so.

use std::path::{Path, PathBuf};

/// A source file of the crate, relative to `src/`, with its text.
struct Source {
    rel: String,
    /// The whole text.
    all: String,
    /// The text without its trailing unit-test module (and empty for `testing.rs` files).
    code: String,
}

fn sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    assert!(
        files.len() > 50,
        "found only {} files under src/",
        files.len()
    );
    files
        .into_iter()
        .map(|p| {
            let all = std::fs::read_to_string(&p).expect("read source");
            let rel = p
                .strip_prefix(&root)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            let code = if rel.ends_with("/testing.rs") || rel.ends_with("/tests.rs") {
                String::new()
            } else {
                without_tests(&all)
            };
            Source { rel, all, code }
        })
        .collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text before the first `#[cfg(test)]` that opens a module.
fn without_tests(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = (0..lines.len())
        .find(|&i| {
            lines[i].trim() == "#[cfg(test)]"
                && lines
                    .get(i + 1)
                    .is_some_and(|l| l.trim_start().starts_with("mod "))
        })
        .unwrap_or(lines.len());
    lines[..end].join("\n")
}

/// The lines of `text` (1-based numbers) that name `needle`, outside `//` comments.
fn mentions(text: &str, needle: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let code = l.split("//").next().unwrap_or("");
            code.contains(needle)
        })
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .collect()
}

/// Checks that no file for which `applies` holds names any of `banned` in `text_of`.
fn forbid(
    rule: &str,
    applies: impl Fn(&str) -> bool,
    banned: &[&str],
    text_of: impl Fn(&Source) -> &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for s in sources().iter().filter(|s| applies(&s.rel)) {
        for b in banned {
            for (line, text) in mentions(text_of(s), b) {
                out.push(format!("src/{}:{line}: {rule}: `{text}`", s.rel));
            }
        }
    }
    out
}

fn check(violations: Vec<String>) {
    assert!(violations.is_empty(), "\n{}", violations.join("\n"));
}

#[test]
fn only_the_front_end_imports_llvm() {
    check(forbid(
        "only frontend/ imports inkwell or llvm-sys",
        |rel| !rel.starts_with("frontend/"),
        &["inkwell", "llvm_sys"],
        |s| &s.all,
    ));
}

#[test]
fn only_the_binary_modules_know_the_command_line() {
    let binary = [
        "main.rs",
        "cli/mod.rs",
        "cli/args.rs",
        "cli/resolve.rs",
        "commands.rs",
    ];
    check(forbid(
        "only main.rs, cli.rs and commands.rs know the command line",
        |rel| !binary.contains(&rel),
        &["clap", "crate::cli", "crate::commands", "watts::cli"],
        |s| &s.all,
    ));
}

#[test]
fn the_program_facts_layers_import_nothing_above_them() {
    // Below `analysis`, in order: each may name only the layers to its left.
    let order = ["ir", "memory", "threads", "facts", "pdg"];
    let above = [
        "crate::analysis",
        "crate::report",
        "crate::explore",
        "crate::cli",
        "crate::commands",
        "crate::harness",
        "crate::project",
    ];
    let mut v = Vec::new();
    for (k, layer) in order.iter().enumerate() {
        let prefix = format!("{layer}/");
        // Unit tests included: nothing below `analysis` needs it, even to test.
        v.extend(forbid(
            &format!("{layer}/ names nothing above the program facts"),
            |rel| rel.starts_with(&prefix),
            &above,
            |s| &s.all,
        ));
        // Code outside unit tests names no layer above its own (tests may build facts).
        let higher: Vec<String> = order[k + 1..]
            .iter()
            .map(|h| format!("crate::{h}"))
            .collect();
        let higher: Vec<&str> = higher.iter().map(String::as_str).collect();
        v.extend(forbid(
            &format!("{layer}/ names no layer above it"),
            |rel| rel.starts_with(&prefix),
            &higher,
            |s| &s.code,
        ));
    }
    check(v);
}

#[test]
fn the_parts_of_the_analysis_form_no_cycle() {
    let mut v = Vec::new();
    // sync/ < engine/ < compose/ < verdict, invariants.
    v.extend(forbid(
        "analysis/sync/ names no other part of the analysis",
        |rel| rel.starts_with("analysis/sync/"),
        &[
            "analysis::engine",
            "analysis::compose",
            "analysis::verdict",
            "analysis::invariants",
            "analysis::testing",
            "super::super::",
        ],
        |s| &s.code,
    ));
    v.extend(forbid(
        "analysis/engine/ names only analysis::sync",
        |rel| rel.starts_with("analysis/engine/"),
        &[
            "analysis::compose",
            "analysis::verdict",
            "analysis::invariants",
            "super::super::",
        ],
        |s| &s.code,
    ));
    v.extend(forbid(
        "analysis/compose/ names nothing of verdict or invariants",
        |rel| rel.starts_with("analysis/compose/"),
        &["analysis::verdict", "analysis::invariants"],
        |s| &s.code,
    ));
    check(v);
}

/// The rules fire: a file that breaks one is reported (so a rule cannot silently match
/// nothing).
#[test]
fn a_violation_is_reported() {
    let text = "use crate::analysis::compose;\n// crate::analysis in a comment\n";
    assert_eq!(mentions(text, "crate::analysis").len(), 1);
    let with_tests = "use a;\n#[cfg(test)]\nmod tests {\n    use crate::analysis;\n}\n";
    assert!(!without_tests(with_tests).contains("crate::analysis"));
    assert!(without_tests(with_tests).contains("use a;"));
}
