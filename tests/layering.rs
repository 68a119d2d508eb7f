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
//! the test too, so the list can only shrink. Each rule has a unit test that feeds it a
//! small source set breaking it (`layering/rule_tests.rs`). The parts: the rules and the layer
//! table (`layering/rules.rs`), the source model and its import graph (`layering/model.rs`),
//! the reader of one file (`layering/reader.rs`).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// Today's violations, `(rule, file, target)`. Each entry is removed by issue 34's work (results
/// in their layer, `ir::lib`, the cycles cut), and the list must only shrink: an entry that no
/// longer occurs fails the test (remove it), and a new violation is fixed, never added here.
const KNOWN_VIOLATIONS: &[(&str, &str, &str)] = &[];

// The parts, beside this file (a test crate's root finds its modules in `tests/`).
#[path = "layering/model.rs"]
mod model;
#[path = "layering/reader.rs"]
mod reader;
#[path = "layering/rule_tests.rs"]
mod rule_tests;
#[path = "layering/rules.rs"]
mod rules;

use model::*;
use reader::*;
use rules::*;

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
