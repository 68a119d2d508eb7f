//! Each rule fails when broken: small source sets that break one rule each.

use super::*;

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
             pub mod ir;\npub mod unlisted;\npub mod report;\npub use config::Config;\n",
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
             pub const L: u32 = crate::unlisted::MAX;\n",
        ),
        ("src/explore/mod.rs", "pub mod witness;\n"),
        ("src/explore/witness.rs", "pub struct Witness;\n"),
        ("src/unlisted.rs", "pub const MAX: u32 = 1;\n"),
    ]);
    let found = rule_layers(&tree);
    assert_eq!(
        keys(&found),
        [
            key("layers", "src/analysis/mod.rs", "src/explore/witness.rs"),
            key("layers", "src/analysis/mod.rs", "src/unlisted.rs"),
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
