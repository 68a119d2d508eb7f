//! See main.rs. Points 4, 5 and 9 of issue 33: what a report reads (a `#line` directive names a
//! secret, a device, a FIFO), where `--html` and `--witness-dir` write (through a planted
//! symbolic link), and what reaches a terminal or a GNU reader (escape sequences, line feeds in
//! file names), a SARIF baseline with a bad `%`, `--html` naming a file.

use crate::common::{self, assert_status, stderr, stdout, watts_in};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The planted secret: it must appear in no report.
const TOKEN: &str = "ghp_Issue33PlantedToken";

/// `watts ARGS` in `dir`, killed after `limit`; the output and whether it ended by itself.
fn watts_within(dir: &Path, args: &[&str], limit: Duration) -> (Output, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_watts"))
        .args(args)
        .current_dir(dir)
        .env_remove("WATTS_CLANG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the watts binary");
    let start = Instant::now();
    let ended = loop {
        if child.try_wait().expect("wait").is_some() {
            break true;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            break false;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (child.wait_with_output().expect("output"), ended)
}

/// A C program whose assertion at line 1 of `name` (a `#line` directive) may fail.
fn line_directive_program(name: &str) -> String {
    format!(
        "#include <assert.h>\nint x;\nint main(void) {{\n#line 1 \"{name}\"\n  assert(x == 1);\n  return 0;\n}}\n"
    )
}

/// Every report of `args` in `dir`: human, GNU, JSON, SARIF, and the HTML page with the
/// document it embeds.
fn every_report(dir: &Path, input: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for format in ["human", "gnu", "json", "sarif"] {
        let o = watts_in(dir, &["analyze", "--format", format, input]);
        assert_status(&o, 1);
        out.push((format.to_string(), stdout(&o) + &stderr(&o)));
    }
    let o = watts_in(dir, &["analyze", "--html", "out", input]);
    assert_status(&o, 1);
    let html = std::fs::read_to_string(dir.join("out/index.html")).expect("the page");
    let doc = watts::report::html::embedded(&html).expect("the embedded document");
    out.push(("html".to_string(), html));
    out.push(("embedded JSON".to_string(), doc.to_string()));
    out
}

#[test]
fn a_line_directive_naming_a_secret_file_shows_its_name_not_its_text() {
    let outside = tempfile::tempdir().expect("temp dir");
    let secret = outside.path().join("environ");
    let text = format!("  CI_TOKEN={TOKEN}; assert(1);\nOTHER={TOKEN}\n");
    std::fs::write(&secret, text).expect("write the secret");
    // A symbolic link in the project that leads to it is no way in either.
    let dir = common::project(&[
        (
            "a.c",
            &line_directive_program(&secret.display().to_string()),
        ),
        ("b.c", &line_directive_program("link.txt")),
        // Inside the project, but where a CI checkout keeps its token.
        ("c.c", &line_directive_program(".git/config")),
        (
            ".git/config",
            &format!("[http]\n  extraheader = AUTHORIZATION: basic {TOKEN}\n"),
        ),
    ]);
    std::os::unix::fs::symlink(&secret, dir.path().join("link.txt")).expect("symlink");
    for input in ["a.c", "b.c", "c.c"] {
        for (format, report) in every_report(dir.path(), input) {
            assert!(
                !report.contains(TOKEN),
                "{input}, {format} report shows the secret:\n{report}"
            );
            if format == "html" {
                // The page lists the file's marked lines, without its text.
                assert!(report.contains("the source text is not shown"), "{input}");
            }
            if format == "gnu" {
                // Shown by name, at its line.
                let name = match input {
                    "a.c" => secret.display().to_string(),
                    "b.c" => "link.txt".to_string(),
                    _ => ".git/config".to_string(),
                };
                assert!(report.starts_with(&format!("{name}:1")), "{report}");
            }
        }
    }
    // A file of the project is shown as before.
    let own = common::project(&[
        ("a.c", &line_directive_program("shown.h")),
        ("shown.h", &format!("  assert(x == 1); // {TOKEN}\n")),
    ]);
    let o = watts_in(own.path(), &["analyze", "a.c"]);
    assert!(stdout(&o).contains(TOKEN), "{}", stdout(&o));
}

#[test]
fn a_line_directive_naming_a_device_or_a_fifo_ends_promptly() {
    let dir = common::project(&[
        ("zero.c", &line_directive_program("/dev/zero")),
        ("fifo.c", &line_directive_program("pipe.h")),
        ("proc.c", &line_directive_program("/proc/self/environ")),
    ]);
    let made = Command::new("mkfifo")
        .arg(dir.path().join("pipe.h"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
    for (input, name) in [
        ("zero.c", "/dev/zero"),
        ("fifo.c", "pipe.h"),
        ("proc.c", "/proc/self/environ"),
    ] {
        for args in [
            &["analyze", input][..],
            &["analyze", "--html", "out", input],
        ] {
            let start = Instant::now();
            let (o, ended) = watts_within(dir.path(), args, Duration::from_secs(60));
            assert!(ended, "{args:?} still runs after {:?}", start.elapsed());
            assert_status(&o, 1);
            // Shown by name, without text (the environment holds `PATH=`).
            let out = stdout(&o);
            assert!(out.starts_with(&format!("{name}:1")), "{out}");
            assert!(!out.contains("PATH="), "{out}");
        }
    }
}

#[test]
fn html_through_a_planted_symbolic_link_leaves_its_target_alone() {
    let outside = tempfile::tempdir().expect("temp dir");
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "precious\n").expect("write");
    let dir = common::project(&[("a.c", &line_directive_program("a.c"))]);
    std::fs::create_dir(dir.path().join("out")).expect("mkdir");
    std::os::unix::fs::symlink(&victim, dir.path().join("out/index.html")).expect("symlink");
    let o = watts_in(dir.path(), &["analyze", "--html", "out", "a.c"]);
    assert_status(&o, 1);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let page = dir.path().join("out/index.html");
    assert!(std::fs::symlink_metadata(&page).unwrap().is_file());
    assert!(std::fs::read_to_string(&page).unwrap().contains("<html"));
    // A directory that is a symbolic link is refused before the analysis, by name.
    std::os::unix::fs::symlink(outside.path(), dir.path().join("linked")).expect("symlink");
    let o = watts_in(dir.path(), &["analyze", "--html", "linked", "a.c"]);
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("--html linked: linked is a symbolic link"),
        "{}",
        stderr(&o)
    );
    assert!(!outside.path().join("index.html").exists());
}

#[test]
fn witnesses_through_a_planted_symbolic_link_leave_its_target_alone() {
    let outside = tempfile::tempdir().expect("temp dir");
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "precious\n").expect("write");
    let dir = common::project(&[(
        "a.c",
        "#include <assert.h>\nint main(void) {\n  int x = 0;\n  assert(x == 1);\n  return 0;\n}\n",
    )]);
    std::fs::create_dir(dir.path().join("w")).expect("mkdir");
    std::os::unix::fs::symlink(&victim, dir.path().join("w/A1.json")).expect("symlink");
    let o = watts_in(dir.path(), &["confirm", "--witness-dir", "w", "a.c"]);
    assert_status(&o, 1);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let witness = dir.path().join("w/A1.json");
    assert!(std::fs::symlink_metadata(&witness).unwrap().is_file());
    assert!(std::fs::read_to_string(&witness)
        .unwrap()
        .contains("\"steps\""));
    std::os::unix::fs::symlink(outside.path(), dir.path().join("wl")).expect("symlink");
    let o = watts_in(dir.path(), &["confirm", "--witness-dir", "wl", "a.c"]);
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("--witness-dir wl: wl is a symbolic link"),
        "{}",
        stderr(&o)
    );
    assert!(!outside.path().join("A1.json").exists());
}

#[test]
fn escape_sequences_and_line_feeds_reach_no_terminal_and_forge_no_gnu_line() {
    let source = "#include <assert.h>\nint __VERIFIER_nondet_int(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();\n  assert(x == 1); /* \x1b]0;pwned\x07\x1b[2K\x1b[1A\u{202e} */\n#line 1 \"evil\\nforged.c:9:9: error: forged [assert-may-fail]\"\n  assert(y == 2);\n  return 0;\n}\n";
    let dir = common::project(&[("a.c", source)]);
    for color in ["never", "always"] {
        let o = watts_in(dir.path(), &["analyze", "--color", color, "a.c"]);
        assert_status(&o, 1);
        let out = stdout(&o);
        let raw = |seq: &str| out.contains(seq);
        assert!(
            !raw("\x1b]") && !raw("\x07") && !raw("\x1b[2K") && !raw("\x1b[1A") && !raw("\u{202e}"),
            "{out:?}"
        );
        if color == "never" {
            assert!(!out.contains('\x1b'), "{out:?}");
        }
        // The name is shown, escaped, on its line.
        assert!(out.contains("evil\\nforged.c:9:9"), "{out}");
        assert!(!out.lines().any(|l| l.starts_with("forged.c")), "{out}");
    }
    // The `\r` of a line ending is layout, not a control character to show.
    let crlf = common::project(&[(
        "c.c",
        "#include <assert.h>\r\nint x;\r\nint main(void) {\r\n  assert(x == 1);\r\n}\r\n",
    )]);
    let o = watts_in(crlf.path(), &["analyze", "c.c"]);
    assert!(
        stdout(&o).contains("4 │   assert(x == 1);\n"),
        "{}",
        stdout(&o)
    );
    let o = watts_in(dir.path(), &["analyze", "--format", "gnu", "a.c"]);
    assert_status(&o, 1);
    let out = stdout(&o);
    // Two findings and the summary: three lines, whatever the names hold.
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(
        out.lines().nth(1).unwrap().starts_with("evil\\nforged.c"),
        "{out}"
    );
    assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
}

#[test]
fn a_sarif_baseline_with_a_percent_before_a_multibyte_character_is_no_internal_error() {
    let dir = common::project(&[
        ("a.c", &line_directive_program("a.c")),
        (
            "base.sarif",
            r#"{"version": "2.1.0", "runs": [{"results": [{"ruleId": "assert-may-fail",
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a%€.c"}}}],
                "partialFingerprints": {"wattsAssertion/v1": "x"}}]}]}"#,
        ),
    ]);
    let o = watts_in(dir.path(), &["analyze", "--baseline", "base.sarif", "a.c"]);
    assert_status(&o, 1);
    assert!(!stderr(&o).contains("internal error"), "{}", stderr(&o));
}

#[test]
fn an_output_directory_that_is_a_file_fails_before_the_analysis() {
    let dir = common::project(&[
        ("a.c", "int main(void) { return 0; }\n"),
        ("bad.c", "int main(void) { return }\n"),
        ("taken", "mine\n"),
    ]);
    // `bad.c` would fail to compile: the output directory is checked first.
    for args in [
        &["analyze", "--html", "taken", "bad.c"][..],
        &["confirm", "--witness-dir", "taken", "bad.c"],
    ] {
        let o = watts_in(dir.path(), args);
        assert_status(&o, 2);
        let flag = args[1];
        assert!(
            stderr(&o).contains(&format!("{flag} taken: taken is not a directory")),
            "{}",
            stderr(&o)
        );
        assert_eq!(stdout(&o), "");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("taken")).unwrap(),
        "mine\n"
    );
    // A directory that does not exist is created, as before.
    let o = watts_in(dir.path(), &["analyze", "--html", "new/report", "a.c"]);
    assert_status(&o, 0);
    assert!(dir.path().join("new/report/index.html").is_file());
}

#[test]
fn a_difile_of_an_ir_input_naming_a_secret_file_shows_its_name_not_its_text() {
    let outside = tempfile::tempdir().expect("temp dir");
    let secret = outside.path().join("credentials");
    std::fs::write(&secret, format!("  assert(x == 1); // {TOKEN}\n")).expect("write");
    let dir = common::project(&[(
        "a.c",
        &line_directive_program(&secret.display().to_string()),
    )]);
    // The `.ll` clang writes names the secret in a `DIFile`; the C file goes, the IR stays.
    let made = Command::new("clang-19")
        .args(["-S", "-emit-llvm", "-g", "a.c", "-o", "a.ll"])
        .current_dir(dir.path())
        .status()
        .expect("clang-19");
    assert!(made.success());
    std::fs::remove_file(dir.path().join("a.c")).expect("remove");
    let ir = std::fs::read_to_string(dir.path().join("a.ll")).expect("the IR");
    assert!(
        ir.contains("DIFile(filename: \"") && ir.contains("credentials"),
        "{ir}"
    );
    for format in ["human", "gnu", "json"] {
        let o = watts_in(dir.path(), &["analyze", "--format", format, "a.ll"]);
        assert_status(&o, 1);
        assert!(!stdout(&o).contains(TOKEN), "{format}:\n{}", stdout(&o));
    }
    let o = watts_in(dir.path(), &["analyze", "--html", "out", "a.ll"]);
    assert_status(&o, 1);
    let html = std::fs::read_to_string(dir.path().join("out/index.html")).expect("the page");
    assert!(!html.contains(TOKEN));
    let doc = watts::report::html::embedded(&html).expect("the embedded document");
    assert!(!doc.to_string().contains(TOKEN), "{doc}");
}

/// A source may `#include` any file, and clang quotes what it cannot parse: the text of a file
/// outside the project (a CI checkout's `.git/config`, which holds its token, or a file
/// elsewhere) never reaches the error message; the place does.
#[test]
fn clang_diagnostics_in_a_file_outside_the_project_are_withheld() {
    let secret = tempfile::tempdir().expect("secret dir");
    let outside = common::write(
        secret.path(),
        "token.h",
        "TOKEN_ELSEWHERE_31337 = basic xyz;\n",
    );
    let dir = common::project(&[
        (
            ".git/config",
            "[http]\n\textraheader = AUTHORIZATION: basic SECRET_IN_GIT_CONFIG\n",
        ),
        (
            "a.c",
            "#include \".git/config\"\nint main(void) { return 0; }\n",
        ),
        (
            "b.c",
            &format!(
                "#include \"{}\"\nint main(void) {{ return 0; }}\n",
                outside.display()
            ),
        ),
        ("c.c", "int main(void) { return undeclared_in_project; }\n"),
    ]);
    for (file, secret) in [
        ("a.c", "SECRET_IN_GIT_CONFIG"),
        ("b.c", "TOKEN_ELSEWHERE_31337"),
    ] {
        let o = common::watts_in(dir.path(), &["analyze", "--no-config", file]);
        common::assert_status(&o, 2);
        let out = format!("{}{}", common::stdout(&o), common::stderr(&o));
        assert!(!out.contains(secret), "{file}: {out}");
        assert!(out.contains("withheld"), "{file}: {out}");
    }
    // The project's own errors are shown as clang wrote them.
    let o = common::watts_in(dir.path(), &["analyze", "--no-config", "c.c"]);
    common::assert_status(&o, 2);
    assert!(
        common::stderr(&o).contains("undeclared_in_project"),
        "{}",
        common::stderr(&o)
    );
}
