//! Project input (issue 7, point 1): several files at once, a compilation database (`-p DIR`,
//! `--compile-commands FILE`) whose entries are compiled with their own flags, and the
//! `watts.toml` project file (found in the current directory or an ancestor).

mod common;
use common::*;
use std::path::Path;

const HEADER: &str = "#define QUEUE_MAX LIMIT\nextern int queued;\nvoid *producer(void *arg);\n";

/// `LIMIT` comes only from the compilation database, and `dev.h` only from its `-I`.
const DEV: &str = r#"#include "dev.h"
int queued;
void *producer(void *arg) {
  if (queued < QUEUE_MAX) queued = queued + 1;
  return 0;
}
"#;

const MAIN: &str = r#"#include <assert.h>
#include <pthread.h>
#include "dev.h"
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_join(t, 0);
  assert(queued <= EXPECTED);
  return 0;
}
"#;

/// A project: `src/dev.c` needs `-I../include -DLIMIT=4`, `src/main.c` needs
/// `-I../include -DEXPECTED=...`; the database also lists an assembly file.
fn build(expected: &str) -> tempfile::TempDir {
    let dir = project(&[
        ("include/dev.h", HEADER),
        ("src/dev.c", DEV),
        ("src/main.c", MAIN),
        ("src/start.S", "  .text\n"),
    ]);
    let build = dir.path().join("build");
    std::fs::create_dir_all(&build).expect("build dir");
    let db = serde_json::json!([
        {"directory": build, "file": "../src/dev.c",
         "command": "cc -c -O2 -Wall -I../include -DLIMIT=4 -o dev.o ../src/dev.c"},
        {"directory": build, "file": "../src/main.c",
         "arguments": ["cc", "-c", "-I", "../include", format!("-DEXPECTED={expected}"),
                       "-o", "main.o", "../src/main.c"]},
        {"directory": build, "file": "../src/start.S", "command": "cc -c ../src/start.S"}
    ]);
    write(dir.path(), "build/compile_commands.json", &db.to_string());
    dir
}

fn inputs(doc: &serde_json::Value) -> Vec<String> {
    doc["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

#[test]
fn build_dir_compiles_each_file_with_its_flags() {
    let dir = build("4");
    let (doc, code) = json_in(dir.path(), &["-p", "build"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(inputs(&doc), vec!["src/dev.c", "src/main.c"]);
    assert_eq!(
        statuses(&doc),
        vec![("queued <= EXPECTED".into(), "proved".into())]
    );
    // The flags are per file: with a smaller bound in main.c's flags the assertion fails.
    let dir = build("0");
    let (doc, code) = json_in(
        dir.path(),
        &["--compile-commands", "build/compile_commands.json"],
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        statuses(&doc),
        vec![("queued <= EXPECTED".into(), "may-fail".into())]
    );
}

#[test]
fn explicit_files_take_their_flags_from_the_database() {
    let dir = build("4");
    let (doc, code) = json_in(dir.path(), &["-p", "build", "src/main.c", "src/dev.c"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(inputs(&doc), vec!["src/main.c", "src/dev.c"]);
    // Without the database, dev.h is not found: clang's message, exit 2.
    let o = watts_in(dir.path(), &["analyze", "src/main.c", "src/dev.c"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("dev.h"), "{}", stderr(&o));
}

#[test]
fn bad_databases_are_input_errors() {
    let dir = build("4");
    write(
        dir.path(),
        "bad/compile_commands.json",
        "{\"not\": \"an array\"}",
    );
    let o = watts_in(dir.path(), &["analyze", "-p", "bad"]);
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("invalid project file"),
        "{}",
        stderr(&o)
    );
    let o = watts_in(dir.path(), &["analyze", "-p", "nowhere"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("no such file"), "{}", stderr(&o));
}

/// `watts.toml` names the files (globs), include paths, defines, entry points and mode; it is
/// found from a subdirectory too, and its paths are relative to its own directory.
#[test]
fn watts_toml_describes_a_driver_project() {
    let dir = project(&[
        ("include/dev.h", "#define LIMIT 3\n"),
        (
            "drv/wdt.c",
            r#"#include <assert.h>
#include "dev.h"
static int level;
void wdt_init(void) { level = 1; }
void wdt_up(void) { if (level < LIMIT) level = level + 1; }
void wdt_check(void) { assert(level >= 1 && level <= LIMIT + EXTRA); }
"#,
        ),
        ("drv/test_wdt.c", "int main(void) { return 0; }\n"),
        (
            "watts.toml",
            r#"files = ["drv/*.c"]
exclude = ["test_*.c"]
include = ["include"]
defines = ["EXTRA=0"]
mode = "flow-insensitive"
check = ["assert"]
init = "wdt_init"
entries = ["wdt_up", "wdt_check"]
"#,
        ),
        ("sub/dir/.keep", ""),
        // A repository: watts.toml is looked for up to its root (issue 33).
        (".git/HEAD", "ref: refs/heads/main\n"),
    ]);
    let (doc, code) = json_in(dir.path(), &[]);
    // `level` races (the entries run at once), but `check` asks for the assertions only.
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["config"]["checks"], serde_json::json!(["assert"]));
    assert!(doc.get("races").is_none(), "{doc}");
    assert_eq!(doc["config"]["mode"], "flow-insensitive");
    assert_eq!(inputs(&doc), vec!["drv/wdt.c"]);
    assert_eq!(statuses(&doc)[0].1, "proved", "{doc}");
    // From a subdirectory, the same project (paths relative to watts.toml).
    let (doc, code) = json_in(&dir.path().join("sub/dir"), &[]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(statuses(&doc)[0].1, "proved", "{doc}");
    // The command line overrides the file: with any number of `wdt_up` instances, two may
    // both pass the check before either increments, and the level may exceed LIMIT.
    let (doc, code) = json_in(
        dir.path(),
        &[
            "--entry",
            "wdt_up:*",
            "--entry",
            "wdt_check",
            "--mode",
            "constraints",
        ],
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["config"]["mode"], "constraints");
    assert_eq!(doc["config"]["harness"]["init"], "wdt_init");
    // `--no-config`: no input at all.
    let o = watts_in(dir.path(), &["analyze", "--no-config"]);
    assert_status(&o, 2);
}

#[test]
fn watts_toml_with_a_compilation_database() {
    let dir = build("4");
    write(
        dir.path(),
        "watts.toml",
        "compile-commands = \"build/compile_commands.json\"\nexclude = [\"start.S\"]\n",
    );
    let (doc, code) = json_in(dir.path(), &[]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(inputs(&doc).len(), 2);
    // `--config` names another file.
    write(
        dir.path(),
        "other.toml",
        "files = [\"src/dev.c\"]\nbogus = 1\n",
    );
    let o = watts_in(dir.path(), &["analyze", "--config", "other.toml"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("bogus"), "{}", stderr(&o));
    assert!(Path::new(&dir.path().join("other.toml")).exists());
}

/// A GCC build's database (kernel-style flags clang does not know) is analysed: the flags the
/// gate does not pass on are dropped with one note naming them, and the flags that change the
/// program's meaning (`-D`, `-I`, `-std`, `-m64`, `-funsigned-char`) still apply.
#[test]
fn gcc_only_flags_of_a_gcc_build_are_dropped_with_one_note() {
    let main = MAIN.replace(
        "  assert(queued <= EXPECTED);",
        "  assert(queued <= EXPECTED);\n  char c = (char)200;\n  assert(c > 0);",
    );
    let dir = project(&[
        ("include/dev.h", HEADER),
        ("src/dev.c", DEV),
        ("src/main.c", &main),
    ]);
    let gcc = "gcc -c -O2 -std=gnu11 -m64 -funsigned-char -mno-red-zone -mcmodel=kernel \
               -mindirect-branch=thunk-extern -mindirect-branch-register \
               -mpreferred-stack-boundary=3 -mrecord-mcount -mfunction-return=thunk-extern \
               -mskip-rax-setup -fno-allow-store-data-races -fconserve-stack \
               -fno-var-tracking-assignments -Wno-maybe-uninitialized -I../include";
    let db = serde_json::json!([
        {"directory": dir.path().join("build"), "file": "../src/dev.c",
         "command": format!("{gcc} -DLIMIT=4 -o dev.o ../src/dev.c")},
        {"directory": dir.path().join("build"), "file": "../src/main.c",
         "command": format!("{gcc} -DEXPECTED=4 -o main.o ../src/main.c")},
    ]);
    write(dir.path(), "build/compile_commands.json", &db.to_string());
    let (doc, code) = json_in(dir.path(), &["-p", "build"]);
    assert_eq!(code, 0, "{doc}");
    // `-funsigned-char` kept: `(char)200 > 0`.
    assert_eq!(doc["summary"]["proved"], 2, "{doc}");
    let notes: Vec<&str> = (doc["notes"].as_array().expect("notes").iter())
        .filter_map(|n| n["message"].as_str())
        .filter(|m| m.contains("does not pass on to clang"))
        .collect();
    assert_eq!(notes.len(), 1, "{doc}");
    for flag in [
        "-mindirect-branch=thunk-extern",
        "-mpreferred-stack-boundary=3",
        "-mrecord-mcount",
        "-mindirect-branch-register",
    ] {
        assert!(notes[0].contains(flag), "{flag}: {}", notes[0]);
    }
    for kept in [
        "-m64",
        "-mcmodel=kernel",
        "-mno-red-zone",
        "-funsigned-char",
        "-std=",
    ] {
        assert!(
            !notes[0].contains(&format!(" {kept}")),
            "{kept}: {}",
            notes[0]
        );
    }
}

/// `watts.toml` takes the ops-table harness too: `entries-from` and `assume-no-write`, as on
/// the command line.
#[test]
fn watts_toml_names_an_ops_table_and_an_assumption() {
    let dir = project(&[
        (
            "drv.c",
            r#"#include <assert.h>
struct ops { void (*up)(void); void (*check)(void); };
extern int register_ops(const struct ops *o, int *state);
static int level;
static void up(void) { if (level < 3) level = level + 1; }
static void check(void) { assert(level >= 1 && level <= 3); }
static const struct ops my_ops = { up, check };
int init(void) { level = 1; return register_ops(&my_ops, &level); }
"#,
        ),
        (
            "watts.toml",
            r#"files = ["drv.c"]
mode = "flow-insensitive"
check = ["assert"]
init = "init"
entries-from = ["my_ops:1"]
assume-no-write = ["register_ops"]
"#,
        ),
    ]);
    let (doc, code) = json_in(dir.path(), &[]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(
        doc["config"]["harness"]["entries_from"][0], "my_ops:1",
        "{doc}"
    );
    assert_eq!(statuses(&doc)[0].1, "proved", "{doc}");
    // Without the assumption, register_ops may change `level` through the pointer it gets.
    std::fs::write(
        dir.path().join("watts.toml"),
        "files = [\"drv.c\"]\nmode = \"flow-insensitive\"\ninit = \"init\"\nentries-from = [\"my_ops:1\"]\n",
    )
    .expect("write");
    let (doc, code) = json_in(dir.path(), &[]);
    assert_eq!(code, 1, "{doc}");
}
