//! `--html DIR` (issue 21): the report a browser opens. The page is checked in a real headless
//! browser (Debian's chromium and chromedriver through selenium: `tests/html_browser.py`), which
//! `.ci/setup` installs; a missing browser fails the test, unless `WATTS_SKIP_BROWSER` is set
//! where tools are not required (`WATTS_REQUIRE_TOOLS` and `CI` unset), which skips only the
//! browser part, saying so.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A corpus program with a violated assertion (a lost update) and a data race (on `count`).
const COUNTER: &str = "tests/corpus/00-readme/counter.c";

/// Runs `watts COMMAND --html DIR --format json FILE` from the repository's root, which exits
/// 1 (a finding); returns the JSON it printed.
fn html_report(command: &str, dir: &Path, file: &str) -> serde_json::Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let html_dir = dir.to_str().expect("utf-8 path");
    let out = watts_in(
        root,
        &[command, "--html", html_dir, "--format", "json", file],
    );
    assert_status(&out, 1);
    serde_json::from_str(&stdout(&out)).expect("JSON report")
}

/// `watts confirm --html DIR --format json COUNTER`.
fn report_of_counter(dir: &Path) -> serde_json::Value {
    html_report("confirm", dir, COUNTER)
}

/// The JSON document the page embeds (compressed; the browser test decodes it with the page's
/// own script).
fn embedded(html: &str) -> serde_json::Value {
    watts::report::html::embedded(html).expect("the embedded JSON document")
}

#[test]
fn the_page_embeds_the_json_report_once_with_the_invariants() {
    let dir = tempfile::tempdir().expect("temp dir");
    let json = report_of_counter(dir.path());
    let html = std::fs::read_to_string(dir.path().join("index.html")).expect("index.html");
    assert_eq!(html.matches("id=\"watts-report\"").count(), 1);
    assert_eq!(
        embedded(&html),
        json,
        "the page's document is the JSON report"
    );
    // What the page needs is in the JSON: the witness's steps as data, the invariants.
    let a1 = &json["assertions"][0];
    assert_eq!(a1["status"], "violated");
    let steps = a1["witness"]["steps"].as_array().expect("steps");
    assert!(steps.iter().all(|s| s["action"]["op"].is_string()));
    let last = steps.last().expect("a step");
    assert_eq!(last["action"]["op"], "read");
    let from = last["action"]["reads_from"]
        .as_u64()
        .expect("the final read saw a write") as usize;
    assert_eq!(steps[from - 1]["action"]["op"], "write");
    let threads = json["invariants"]["threads"]
        .as_array()
        .expect("invariants");
    assert!(!threads.is_empty());
    // Variables that may have any value of their type are left out (`watts invariants` shows
    // `main::a ∈ [0, 18446744073709551615]` on line 21 and `count ∈ [-2147483648,
    // 2147483647]` on line 23); the lines are still listed as reached.
    assert_eq!(json["invariants"]["unconstrained_omitted"], true);
    let main = threads.iter().find(|t| t["name"] == "main").expect("main");
    let lines = main["lines"].as_array().expect("lines");
    for line in [21, 23] {
        let l = lines
            .iter()
            .find(|l| l["line"] == line)
            .expect("a reached line");
        assert_eq!(l["values"], serde_json::json!({}), "{l}");
    }
    // The race is confirmed: its witness has the shape of an assertion's and ends with the two
    // racing accesses.
    let race = &json["races"][0];
    assert_eq!(race["status"], "violated");
    let steps = race["witness"]["steps"].as_array().expect("race witness");
    let ops: Vec<&str> = (steps[steps.len() - 2..].iter())
        .map(|s| s["action"]["op"].as_str().unwrap_or(""))
        .collect();
    assert!(
        ops.iter()
            .all(|op| ["read", "write", "update"].contains(op)),
        "{ops:?}"
    );
    // Without --html there are no invariants in the JSON (they cost a kept fixpoint).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let plain = watts_in(root, &["analyze", "--format", "json", COUNTER]);
    let plain: serde_json::Value = serde_json::from_str(&stdout(&plain)).expect("JSON");
    assert!(plain.get("invariants").is_none());
}

#[test]
fn an_unwritable_directory_is_an_input_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = watts_in(root, &["analyze", "--html", "/dev/null/report", COUNTER]);
    assert_status(&out, 2);
    assert!(
        stderr(&out).contains("--html /dev/null/report"),
        "{}",
        stderr(&out)
    );
}

/// The Python with selenium: `WATTS_PYTHON`, else Debian's (`python3-selenium` installs for
/// `/usr/bin/python3`, which a pyenv or venv `python3` on PATH would not see), else `python3`.
fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("WATTS_PYTHON") {
        return p.into();
    }
    let debian = Path::new("/usr/bin/python3");
    if debian.exists() {
        debian.to_path_buf()
    } else {
        "python3".into()
    }
}

/// Runs `tests/html_browser.py ARGS` from the repository's root; `None` when the browser part
/// is skipped (no browser, driver or selenium, `WATTS_SKIP_BROWSER` set outside CI), else its
/// output, failing the test unless it passed.
fn browser(args: &[&Path]) -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = Command::new(python())
        .arg(root.join("tests/html_browser.py"))
        .args(args)
        .current_dir(root)
        .output();
    let (code, text) = match &run {
        Ok(o) => (o.status.code(), format!("{}{}", stdout(o), stderr(o))),
        Err(e) => (Some(2), format!("cannot run {}: {e}", python().display())),
    };
    // Status 2: no browser, driver or selenium.
    if code == Some(2)
        && std::env::var_os("WATTS_SKIP_BROWSER").is_some()
        && !common::tools_required()
    {
        eprintln!("SKIPPED the browser test (WATTS_SKIP_BROWSER is set): {text}");
        return None;
    }
    assert_eq!(
        code,
        Some(0),
        "the browser test failed (install the browser with .ci/setup; outside CI, \
         WATTS_SKIP_BROWSER=1 skips it):\n{text}"
    );
    eprintln!("{}", text.trim());
    Some(text)
}

#[test]
fn a_browser_opens_the_report_of_the_racy_counter() {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html");
    let _ = std::fs::remove_dir_all(&out_dir);
    let dir = out_dir.join("counter");
    let json = report_of_counter(&dir);
    let json_path = out_dir.join("counter.json");
    std::fs::write(&json_path, json.to_string()).expect("write the JSON");
    let shot = out_dir.join("counter.png");
    if browser(&[Path::new("check"), &dir, &json_path, &shot]).is_some() {
        assert!(shot.exists(), "the screenshot {}", shot.display());
    }
}

/// A race with more accesses than the details write as HTML: once opened, it lists every
/// access the JSON lists, the rest added by the page's script from the embedded document.
#[test]
fn a_race_lists_every_access_once_opened() {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-accesses");
    let _ = std::fs::remove_dir_all(&out_dir);
    let dir = out_dir.join("page");
    let json = html_report("analyze", &dir, "tests/html/many_accesses.c");
    assert_eq!(
        json["races"][0]["accesses"].as_array().map(Vec::len),
        Some(14)
    );
    let json_path = out_dir.join("report.json");
    std::fs::write(&json_path, json.to_string()).expect("write the JSON");
    browser(&[Path::new("accesses"), &dir, &json_path]);
}
