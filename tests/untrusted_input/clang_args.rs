//! Points 1, 2, 3 and 6 of issue 33: clang arguments from `watts.toml`, a compilation
//! database or a witness pass the gate; an input's name is never read as an option or a
//! response file; `watts.toml` is looked for up to the repository root only; `files` globs do
//! not follow links out of the project.
//!
//! The payloads are real: a plugin that creates `MARKER` when clang loads it, and a script
//! `tools/as` that creates it when clang runs it as the assembler. Each test first checks that
//! clang itself runs the payload when asked directly (so a test cannot pass because the payload
//! is broken), then that watts does not.

use crate::common::{assert_status, project, stderr, stdout, watts_in, write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

const PROGRAM: &str =
    "#include <assert.h>\nint main(void) { int x = 1; assert(x == 1); return 0; }\n";

/// A shared object whose constructor creates `marker` (an absolute path) when it is loaded.
fn plugin(dir: &Path, marker: &Path) -> std::path::PathBuf {
    let src = write(
        dir,
        "evil.c",
        &format!(
            "#include <stdio.h>\n__attribute__((constructor)) static void run(void) {{\n  \
             FILE *f = fopen(\"{}\", \"w\");\n  if (f) fclose(f);\n}}\n",
            marker.display()
        ),
    );
    let so = dir.join("evil.so");
    let o = Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&so)
        .arg(&src)
        .output()
        .expect("run cc (the C compiler is needed to build the plugin payload)");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_file(&src).expect("remove evil.c");
    so
}

/// `tools/as` (executable, as git keeps it) that creates `MARKER` beside `tools/`, and
/// `tools/c.cfg`, a clang configuration file that makes clang run it.
fn assembler_payload(dir: &Path) {
    let script = write(
        dir,
        "tools/as",
        "#!/bin/sh\ntouch \"$(dirname \"$0\")/../MARKER\"\nexit 1\n",
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    write(
        dir,
        "tools/c.cfg",
        "-x assembler -fno-integrated-as -Btools/\n",
    );
}

fn clang(dir: &Path, args: &[&str]) {
    let _ = Command::new("clang-19")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run clang-19");
}

#[track_caller]
fn assert_no_marker(dir: &Path, o: &std::process::Output) {
    assert!(
        !dir.join("MARKER").exists(),
        "the payload ran\nstdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// Runs the payload through clang directly, checks it ran, and removes the marker.
#[track_caller]
fn payload_works(dir: &Path, args: &[&str]) {
    clang(dir, args);
    assert!(
        dir.join("MARKER").exists(),
        "the payload does not run even through clang {args:?}: the test would prove nothing"
    );
    std::fs::remove_file(dir.join("MARKER")).expect("remove marker");
}

/// Point 1: `clang-args = ["-fplugin=evil.so"]` does not load the plugin; the note names it.
#[test]
fn a_plugin_in_watts_toml_is_not_loaded() {
    let dir = project(&[("a.c", PROGRAM)]);
    let marker = dir.path().join("MARKER");
    plugin(dir.path(), &marker);
    payload_works(dir.path(), &["-fplugin=./evil.so", "-fsyntax-only", "a.c"]);
    for args in [
        r#"["-fplugin=./evil.so"]"#,
        r#"["-fpass-plugin=./evil.so"]"#,
        r#"["-Xclang", "-load", "-Xclang", "./evil.so"]"#,
    ] {
        write(
            dir.path(),
            "watts.toml",
            &format!("files = [\"a.c\"]\nclang-args = {args}\n"),
        );
        let o = watts_in(dir.path(), &["analyze"]);
        assert_status(&o, 0);
        assert_no_marker(dir.path(), &o);
        let out = format!("{}{}", stdout(&o), stderr(&o));
        assert!(
            out.contains("not passed on to clang") && out.contains("evil.so"),
            "{args}: {out}"
        );
    }
}

/// Point 1: `--config=tools/c.cfg` would make clang run `tools/as`; `-o PATH` would overwrite
/// PATH. Both are dropped.
#[test]
fn a_config_file_or_an_output_in_watts_toml_does_nothing() {
    let dir = project(&[("a.c", PROGRAM), ("victim", "precious\n")]);
    assembler_payload(dir.path());
    payload_works(
        dir.path(),
        &["--config=tools/c.cfg", "-c", "a.c", "-o", "/dev/null"],
    );
    for args in [
        r#"["--config=tools/c.cfg"]"#,
        r#"["--config", "tools/c.cfg"]"#,
        r#"["-Btools/", "-fno-integrated-as", "-x", "assembler"]"#,
        r#"["-o", "victim"]"#,
    ] {
        write(
            dir.path(),
            "watts.toml",
            &format!("files = [\"a.c\"]\nclang-args = {args}\n"),
        );
        let o = watts_in(dir.path(), &["analyze"]);
        assert_status(&o, 0);
        assert_no_marker(dir.path(), &o);
        let victim = std::fs::read_to_string(dir.path().join("victim")).expect("victim");
        assert_eq!(victim, "precious\n", "{args}");
    }
}

/// Point 1: a `watts.toml` above the repository root (left in a CI workspace's parent) is not
/// read; one inside the repository still is.
#[test]
fn watts_toml_is_looked_for_up_to_the_repository_root() {
    let dir = project(&[("watts.toml", "bogus-key = 1\n"), ("repo/src/a.c", PROGRAM)]);
    std::fs::create_dir_all(dir.path().join("repo/.git")).expect("repo");
    let o = watts_in(&dir.path().join("repo/src"), &["analyze", "a.c"]);
    assert_status(&o, 0);
    // Inside the repository, the nearest one is read (here, a broken one: exit 2 naming it).
    write(dir.path(), "repo/watts.toml", "bogus-key = 1\n");
    let o = watts_in(&dir.path().join("repo/src"), &["analyze", "a.c"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("bogus-key"), "{}", stderr(&o));
    // Outside any repository, only the current directory's.
    let plain = project(&[("watts.toml", "bogus-key = 1\n"), ("sub/a.c", PROGRAM)]);
    assert_status(&watts_in(&plain.path().join("sub"), &["analyze", "a.c"]), 0);
}

fn database(dir: &Path, args: &[&str]) {
    let mut argv = vec!["cc", "-c"];
    argv.extend_from_slice(args);
    argv.push("a.c");
    let db = serde_json::json!([{"directory": dir, "file": "a.c", "arguments": argv}]);
    write(dir, "compile_commands.json", &db.to_string());
}

/// Point 2: a value after `-D` (or `-U`, `-I`, `-target`) starting with `@` would be read by
/// clang as a response file: refused, exit 2, naming it.
#[test]
fn a_response_file_in_a_database_is_refused() {
    let dir = project(&[("a.c", PROGRAM)]);
    let marker = dir.path().join("MARKER");
    plugin(dir.path(), &marker);
    write(dir.path(), "resp.txt", "X -fplugin=./evil.so\n");
    payload_works(dir.path(), &["-D", "@resp.txt", "-fsyntax-only", "a.c"]);
    for flag in ["-D", "-U", "-I", "-target", "-include"] {
        database(dir.path(), &[flag, "@resp.txt"]);
        let o = watts_in(dir.path(), &["analyze", "-p", "."]);
        assert_status(&o, 2);
        assert_no_marker(dir.path(), &o);
        assert!(stderr(&o).contains("@resp.txt"), "{flag}: {}", stderr(&o));
    }
    // As an argument of its own, too.
    database(dir.path(), &["@resp.txt"]);
    let o = watts_in(dir.path(), &["analyze", "-p", "."]);
    assert_status(&o, 2);
    assert_no_marker(dir.path(), &o);
}

/// Point 2: `-mllvm` options (`-print-after-all -ir-dump-directory=DIR` writes files into any
/// directory) and the rest of the `-m` family that is not a target flag are dropped with a
/// note; `-m32` and `-march=` still apply.
#[test]
fn mllvm_in_a_database_writes_nothing() {
    let dir = project(&[("a.c", PROGRAM)]);
    let dump = tempfile::tempdir().expect("dump dir");
    let dump_flag = format!("-mllvm=-ir-dump-directory={}", dump.path().display());
    clang(
        dir.path(),
        &[
            "-mllvm=-print-after-all",
            &dump_flag,
            "-c",
            "a.c",
            "-o",
            "/dev/null",
        ],
    );
    let written = std::fs::read_dir(dump.path()).expect("dump dir").count();
    assert!(
        written > 0,
        "clang wrote nothing: the test would prove nothing"
    );
    let dump2 = tempfile::tempdir().expect("dump dir");
    let dump_flag = format!("-mllvm=-ir-dump-directory={}", dump2.path().display());
    let sep_flag = format!("-ir-dump-directory={}", dump2.path().display());
    database(
        dir.path(),
        &[
            "-mllvm=-print-after-all",
            &dump_flag,
            "-mllvm",
            &sep_flag,
            "-m64",
            "-march=x86-64",
        ],
    );
    let (doc, code) = crate::common::json_in(dir.path(), &["-p", "."]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(std::fs::read_dir(dump2.path()).expect("dir").count(), 0);
    let notes = doc["notes"].to_string();
    assert!(notes.contains("-mllvm=-print-after-all"), "{notes}");
    assert!(!notes.contains("-march=x86-64"), "{notes}");
}

/// Point 2: `-include FILE` pastes a file into the program (and clang's diagnostics quote it):
/// a file outside the project is refused; one inside is used.
#[test]
fn an_include_outside_the_project_is_refused() {
    let secret = tempfile::tempdir().expect("secret dir");
    let secret_file = write(secret.path(), "token", "CI_TOKEN_42_SECRET\n");
    let dir = project(&[("a.c", PROGRAM), ("cfg.h", "#define CFG 1\n")]);
    std::fs::create_dir_all(dir.path().join(".git")).expect("repo");
    std::os::unix::fs::symlink(&secret_file, dir.path().join("link.h")).expect("link");
    for value in [
        secret_file.to_str().expect("utf-8"),
        "link.h",
        "/proc/self/environ",
    ] {
        database(dir.path(), &["-include", value]);
        let o = watts_in(dir.path(), &["analyze", "-p", "."]);
        assert_status(&o, 2);
        let out = format!("{}{}", stdout(&o), stderr(&o));
        assert!(!out.contains("CI_TOKEN_42_SECRET"), "{out}");
        assert!(out.contains("outside the project"), "{value}: {out}");
    }
    database(dir.path(), &["-include", "cfg.h"]);
    assert_status(&watts_in(dir.path(), &["analyze", "-p", "."]), 0);
}

/// Point 3: an input named `@x.c` is never read by clang as a file of arguments, whether named
/// on the command line (`watts analyze *.c`), by `files = ["*.c"]`, or by a witness.
#[test]
fn an_input_named_like_a_response_file_runs_nothing() {
    let dir = project(&[
        ("@x.c", PROGRAM),
        ("x.c", "-x assembler -fno-integrated-as -Btools/ y.s\n"),
        ("y.s", "nop\n"),
    ]);
    assembler_payload(dir.path());
    payload_works(dir.path(), &["-c", "@x.c", "-o", "/dev/null"]);
    let o = watts_in(dir.path(), &["analyze", "@x.c", "x.c"]);
    assert_status(&o, 2);
    assert_no_marker(dir.path(), &o);
    assert!(stderr(&o).contains("@x.c"), "{}", stderr(&o));
    write(dir.path(), "watts.toml", "files = [\"*.c\"]\n");
    let o = watts_in(dir.path(), &["analyze"]);
    assert_status(&o, 2);
    assert_no_marker(dir.path(), &o);
    // After `--`, as pre-commit passes staged files.
    let o = watts_in(dir.path(), &["analyze", "--no-config", "--", "@x.c"]);
    assert_status(&o, 2);
    assert_no_marker(dir.path(), &o);
    // A name starting with `-` is a file, not a flag: a shared object staged as
    // `-fplugin=evil.c` (pre-commit appends staged files after a hook's `--`) is compiled as
    // C (and fails to), never loaded.
    let marker = dir.path().join("MARKER");
    let so = plugin(dir.path(), &marker);
    std::fs::rename(&so, dir.path().join("-fplugin=evil.c")).expect("rename");
    let o = watts_in(
        dir.path(),
        &["analyze", "--no-config", "--", "-fplugin=evil.c"],
    );
    assert_no_marker(dir.path(), &o);
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("could not compile -fplugin=evil.c"),
        "{}",
        stderr(&o)
    );
    write(dir.path(), "-y.c", PROGRAM);
    let o = watts_in(dir.path(), &["analyze", "--no-config", "--", "-y.c"]);
    assert_status(&o, 0);
}

/// Point 3: `watts replay A1.json` inside the witness folder, whose witness names `@x.c`.
#[test]
fn a_witness_naming_a_response_file_runs_nothing() {
    let failing = "#include <assert.h>\nint main(void) { int x = 1; assert(x == 2); return 0; }\n";
    let dir = project(&[("w/a.c", failing)]);
    let o = watts_in(
        &dir.path().join("w"),
        &["confirm", "--witness-dir", ".", "a.c"],
    );
    assert_status(&o, 1);
    let text = std::fs::read_to_string(dir.path().join("w/A1.json")).expect("witness");
    let text = text.replace("a.c\"", "@x.c\"");
    write(dir.path(), "w/A1.json", &text);
    std::fs::rename(dir.path().join("w/a.c"), dir.path().join("w/@x.c")).expect("rename");
    write(
        dir.path(),
        "w/x.c",
        "-x assembler -fno-integrated-as -Btools/ y.s\n",
    );
    write(dir.path(), "w/y.s", "nop\n");
    assembler_payload(&dir.path().join("w"));
    let o = watts_in(&dir.path().join("w"), &["replay", "A1.json"]);
    assert_no_marker(&dir.path().join("w"), &o);
    assert_status(&o, 2);
}

/// Point 6: `files = ["**/*.c"]` does not follow links to directories (two links back to `.`
/// ended never) nor links to files outside the project.
#[test]
fn globs_do_not_follow_links_out_of_the_project() {
    let other = project(&[(
        "stolen.c",
        "int stolen_secret_function(void) { return 7; }\n",
    )]);
    let dir = project(&[
        ("src/a.c", PROGRAM),
        ("watts.toml", "files = [\"**/*.c\"]\n"),
    ]);
    std::os::unix::fs::symlink(dir.path(), dir.path().join("src/loop1")).expect("link");
    std::os::unix::fs::symlink(dir.path().join("src"), dir.path().join("src/loop2")).expect("link");
    std::os::unix::fs::symlink(other.path(), dir.path().join("other")).expect("link");
    std::os::unix::fs::symlink(other.path().join("stolen.c"), dir.path().join("b.c"))
        .expect("link");
    let start = std::time::Instant::now();
    let (doc, code) = crate::common::json_in(dir.path(), &[]);
    assert!(start.elapsed().as_secs() < 60, "took {:?}", start.elapsed());
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["inputs"], serde_json::json!(["src/a.c"]), "{doc}");
    // Named without a glob, a link out of the project is refused.
    write(dir.path(), "watts.toml", "files = [\"b.c\"]\n");
    let o = watts_in(dir.path(), &["analyze"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("outside the project"), "{}", stderr(&o));
}

/// A FIFO named as an input is refused at once (it would block the reads of clang and of the
/// report).
#[test]
fn a_fifo_input_is_refused() {
    let dir = project(&[]);
    let fifo = dir.path().join("f.c");
    let o = Command::new("mkfifo").arg(&fifo).output().expect("mkfifo");
    assert!(o.status.success());
    let o = watts_in(dir.path(), &["analyze", "f.c"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}

/// A witness from a CI artifact names its inputs: one that is a link out of the project (to a
/// secret, whose text clang's diagnostics would quote) is refused.
#[test]
fn a_witness_naming_a_file_outside_the_project_is_refused() {
    let failing = "#include <assert.h>\nint main(void) { int x = 1; assert(x == 2); return 0; }\n";
    let secret = tempfile::tempdir().expect("secret dir");
    let token = write(secret.path(), "token.c", "CI_TOKEN_42_SECRET\n");
    let dir = project(&[("w/a.c", failing)]);
    std::fs::create_dir_all(dir.path().join(".git")).expect("repo");
    let o = watts_in(
        &dir.path().join("w"),
        &["confirm", "--witness-dir", ".", "a.c"],
    );
    assert_status(&o, 1);
    std::fs::remove_file(dir.path().join("w/a.c")).expect("remove");
    std::os::unix::fs::symlink(&token, dir.path().join("w/a.c")).expect("link");
    let o = watts_in(&dir.path().join("w"), &["replay", "A1.json"]);
    assert_status(&o, 2);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!out.contains("CI_TOKEN_42_SECRET"), "{out}");
    assert!(out.contains("not a regular file of the project"), "{out}");
}

/// An error message quotes what a file says (a path a project file names, clang's
/// diagnostics of the source): its control characters reach no terminal.
#[test]
fn an_error_message_carries_no_control_character() {
    let dir = project(&[(
        "a.c",
        "int main(void) { return 0; }\n#error \"\x1b]0;owned\x07\x1b[2K\"\n",
    )]);
    // TOML takes a control character only escaped.
    write(dir.path(), "watts.toml", "files = [\"a\\u001b[1Ab.c\"]\n");
    let o = watts_in(dir.path(), &["analyze"]);
    assert_status(&o, 2);
    assert!(!stderr(&o).contains('\x1b'), "{:?}", stderr(&o));
    let o = watts_in(dir.path(), &["analyze", "--no-config", "a.c"]);
    assert_status(&o, 2);
    assert!(!stderr(&o).contains('\x1b'), "{:?}", stderr(&o));
    assert!(!stderr(&o).contains('\x07'), "{:?}", stderr(&o));
}
