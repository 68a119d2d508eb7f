//! `watts confirm` / `analyze --confirm` and `watts replay`, run as a user would; and the
//! cross-check of the two halves of watts: on every corpus program and SV-COMP task, no
//! assertion is both proved (or unreachable) and violated, and no assertion annotated as true
//! or any error call of a task whose expected verdict is true gets a witness.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A racy counter: two threads increment without a lock, so `count == 2` fails when both read 0
/// (the README's example).
const RACY: &str = include_str!("corpus/00-readme/counter.c");

/// The same counter behind a mutex: no execution fails.
const LOCKED: &str = include_str!("corpus/05-threads/08-mutex.c");

fn dir_with(name: &str, text: &str) -> tempfile::TempDir {
    project(&[(name, text)])
}

#[test]
fn a_racy_counter_is_violated_with_its_interleaving() {
    let dir = dir_with("racy.c", RACY);
    let o = watts_in(dir.path(), &["confirm", "racy.c"]);
    assert_status(&o, 1);
    let out = stdout(&o);
    assert!(out.contains("error[assert-violated]"), "{out}");
    assert!(out.contains("the failing execution, step by step"), "{out}");
    assert!(out.contains("inc: reads count = 0"), "{out}");
    assert!(out.contains("1 violated"), "{out}");
    // `analyze --confirm` is the same.
    let o = watts_in(dir.path(), &["analyze", "--confirm", "racy.c"]);
    assert_status(&o, 1);
    assert!(stdout(&o).contains("error[assert-violated]"));
}

#[test]
fn a_locked_counter_is_not_violated() {
    let dir = dir_with("locked.c", LOCKED);
    let o = watts_in(dir.path(), &["confirm", "--format", "json", "locked.c"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(doc["summary"]["violated"], 0, "{doc}");
    let a = &doc["assertions"][0];
    assert!(a.get("witness").is_none(), "{a}");
    assert!(
        doc["stats"]["executions"].as_u64().unwrap_or(0) > 0 || a["status"] == "proved",
        "{doc}"
    );
}

#[test]
fn json_carries_the_witness_and_replay_confirms_it() {
    let dir = dir_with("racy.c", RACY);
    let (doc, code) = json_in(dir.path(), &["--confirm", "--witness-dir", "w", "racy.c"]);
    assert_eq!(code, 1, "{doc}");
    let a = &doc["assertions"][0];
    assert_eq!(a["status"], "violated", "{a}");
    let w = &a["witness"];
    assert_eq!(w["version"], 3);
    assert_eq!(w["assertion"]["condition"], "count == 2");
    let steps = w["steps"].as_array().expect("steps");
    assert!(steps.len() >= 4, "{w}");
    assert!(steps.iter().any(|s| s["event"] == "reads count = 0"), "{w}");
    // The witness file replays: the assertion fails again (exit 1).
    let file = dir.path().join("w/A1.json");
    assert!(file.is_file());
    let o = watts_in(dir.path(), &["replay", "w/A1.json"]);
    assert_status(&o, 1);
    assert!(stdout(&o).contains("A1 fails again"), "{}", stdout(&o));
}

#[test]
fn replay_rejects_a_witness_of_another_program() {
    let dir = dir_with("racy.c", RACY);
    let o = watts_in(dir.path(), &["confirm", "--witness-dir", "w", "racy.c"]);
    assert_status(&o, 1);
    // The program changes under the witness: the assertion moves to another line.
    std::fs::write(
        dir.path().join("racy.c"),
        RACY.replace("int count = 0;", "int count = 0;\nint unused;"),
    )
    .expect("write");
    let o = watts_in(dir.path(), &["replay", "w/A1.json"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("the program changed"), "{}", stderr(&o));
    // A schedule that does not fit the program.
    let text = std::fs::read_to_string(dir.path().join("w/A1.json")).expect("read");
    let mut w: serde_json::Value = serde_json::from_str(&text).expect("json");
    std::fs::write(dir.path().join("racy.c"), RACY).expect("write");
    w["steps"][1]["tid"] = serde_json::json!(7);
    std::fs::write(dir.path().join("bad.json"), w.to_string()).expect("write");
    let o = watts_in(dir.path(), &["replay", "bad.json"]);
    assert_status(&o, 2);
    // Not a witness at all.
    std::fs::write(dir.path().join("junk.json"), "{}").expect("write");
    assert_status(&watts_in(dir.path(), &["replay", "junk.json"]), 2);
    assert_status(&watts_in(dir.path(), &["replay", "missing.json"]), 2);
}

#[test]
fn confirm_options_need_confirm() {
    let dir = dir_with("racy.c", RACY);
    for extra in [
        &["--bound", "2"][..],
        &["--witness-dir", "w"],
        &["--confirm-timeout", "1"],
        &["--confirm-budget", "1"],
        &["--strategy", "exhaustive"],
        &["--pct-depth", "2"],
    ] {
        let mut args = vec!["analyze", "racy.c"];
        args.extend_from_slice(extra);
        let o = watts_in(dir.path(), &args);
        assert_status(&o, 2);
        assert!(stderr(&o).contains("need --confirm"), "{}", stderr(&o));
    }
}

/// `main` counts to `n` in a loop, then asserts it did not.
fn counting_loop(n: u32) -> String {
    format!(
        "#include <assert.h>\nint main(void) {{\n  int i = 0;\n  while (i < {n}) i++;\n  \
         assert(i != {n});\n  return 0;\n}}\n"
    )
}

#[test]
fn the_loop_bound_deepens_until_the_failure_is_found() {
    // The failure needs ten loop iterations: bound 2 is doubled until it is reached.
    let src = counting_loop(10);
    let dir = dir_with("loop.c", &src);
    let o = watts_in(
        dir.path(),
        &["confirm", "--bound", "2", "--witness-dir", "w", "loop.c"],
    );
    assert_status(&o, 1);
    assert!(stdout(&o).contains("assert-violated"), "{}", stdout(&o));
    // The witness records the bound it needs, and replays with it.
    let w: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("w/A1.json")).expect("read"))
            .expect("json");
    assert!(w["bound"].as_u64().unwrap_or(0) >= 10, "{w}");
    assert_status(&watts_in(dir.path(), &["replay", "w/A1.json"]), 1);
}

#[test]
fn a_search_that_finds_nothing_says_how_far_it_went() {
    // Out of reach of every bound: the search reports what limited it.
    let src = counting_loop(1_000_000);
    let dir = dir_with("loop.c", &src);
    let (doc, _) = json_in(
        dir.path(),
        &["--confirm", "--confirm-timeout", "3", "loop.c"],
    );
    let a = &doc["assertions"][0];
    assert_eq!(a["status"], "may-fail", "{a}");
    let reason = a["reason"].as_str().unwrap_or("");
    assert!(reason.contains("no failing execution found"), "{reason}");
    assert!(
        reason.contains("loop bound") || reason.contains("budget"),
        "{reason}"
    );
}

// ---- Strategies (issue 9): samplers find real failures; only the exhaustive search proves. ----

/// A corpus program whose FAILS! assertion needs one thread's read to fall between another
/// thread's two writes.
const INHERITED: &str = include_str!("corpus/10-flow/07-inherited-view.c");

#[test]
fn each_sampler_finds_a_corpus_failure_and_its_witness_replays() {
    for (name, text) in [("racy.c", RACY), ("inherited.c", INHERITED)] {
        let dir = dir_with(name, text);
        for strategy in ["speed", "pct", "random", "focus"] {
            let (doc, code) = json_in(
                dir.path(),
                &[
                    "--confirm",
                    "--strategy",
                    strategy,
                    "--seed",
                    "1",
                    "--confirm-budget",
                    "3",
                    "--witness-dir",
                    "w",
                    name,
                ],
            );
            assert_eq!(code, 1, "{doc}");
            let violated: Vec<&serde_json::Value> = doc["assertions"]
                .as_array()
                .expect("assertions")
                .iter()
                .filter(|a| a["status"] == "violated")
                .collect();
            assert!(!violated.is_empty(), "{strategy} on {name}: {doc}");
            for a in violated {
                // Who found it, in its own field and in the reason; the witness fields as
                // before.
                let by = a["found_by"].as_str().unwrap_or("");
                assert!(by.starts_with(&format!("{strategy} sampling, run ")), "{a}");
                assert!(a["reason"].as_str().unwrap_or("").contains(by), "{a}");
                assert_eq!(a["witness"]["version"], 3, "{a}");
                assert!(a["witness"]["bound"].as_u64().unwrap_or(0) >= 1024, "{a}");
                let id = a["id"].as_str().expect("id");
                let o = watts_in(dir.path(), &["replay", &format!("w/{id}.json")]);
                assert_status(&o, 1);
                assert!(stdout(&o).contains("fails again"), "{}", stdout(&o));
            }
            // The same seed gives the same report (when every target is found before the
            // budget runs out; otherwise how far the search went depends on the clock).
            if name != "racy.c" {
                continue;
            }
            let (doc2, _) = json_in(
                dir.path(),
                &["--confirm", "--strategy", strategy, "--seed", "1", name],
            );
            assert_eq!(
                doc["assertions"], doc2["assertions"],
                "{strategy} on {name}"
            );
        }
    }
}

#[test]
fn only_the_exhaustive_search_says_that_no_execution_fails() {
    // Without lock reasoning (flow-insensitive), the locked counter's assertions may fail;
    // they hold in every execution, which the proof by exploration runs first, whatever the
    // strategy.
    let dir = dir_with("locked.c", LOCKED);
    for strategy in ["exhaustive", "speed"] {
        let (doc, code) = json_in(
            dir.path(),
            &[
                "--confirm",
                "--mode",
                "flow-insensitive",
                "--strategy",
                strategy,
                "locked.c",
            ],
        );
        assert_eq!(code, 0, "{strategy}: {doc}");
        let a = &doc["assertions"][0];
        assert_eq!(a["status"], "proved", "{strategy}: {a}");
        let reason = a["reason"].as_str().unwrap_or("");
        assert!(reason.starts_with("every execution was run ("), "{reason}");
    }
    // With `main` reading argc, no proof is tried (argc may be anything), and only the
    // search for failures runs, which restricts argc to 1.
    let with_args = LOCKED.replace(
        "int main(void) {",
        "int main(int argc, char **argv) {\n    if (argc > 1000) return argv == 0;",
    );
    assert_ne!(with_args, LOCKED);
    let dir = dir_with("locked.c", &with_args);
    for strategy in ["exhaustive", "auto", "speed", "pct", "random"] {
        let (doc, _) = json_in(
            dir.path(),
            &[
                "--confirm",
                "--mode",
                "flow-insensitive",
                "--strategy",
                strategy,
                "--confirm-budget",
                "1",
                "locked.c",
            ],
        );
        assert_eq!(doc["summary"]["violated"], 0, "{strategy}: {doc}");
        let a = &doc["assertions"][0];
        assert_eq!(a["status"], "may-fail", "{strategy}: {a}");
        let reason = a["reason"].as_str().unwrap_or("");
        if matches!(strategy, "exhaustive" | "auto") {
            // The search is small: it completes (auto stops sampling then).
            assert!(
                reason.contains("every execution was run"),
                "{strategy}: {reason}"
            );
        } else {
            assert!(
                !reason.contains("every execution was run"),
                "{strategy}: {reason}"
            );
            assert!(
                reason.contains(&format!("sampled ({strategy})")),
                "{strategy}: {reason}"
            );
        }
    }
}

#[test]
fn bad_strategy_options_are_usage_errors() {
    let dir = dir_with("racy.c", RACY);
    for args in [
        &["confirm", "--strategy", "dfs", "racy.c"][..],
        &["confirm", "--pct-depth", "0", "racy.c"],
        &["confirm", "--seed", "-1", "racy.c"],
        &["confirm", "--confirm-budget", "0", "racy.c"],
        &["analyze", "--strategy", "speed", "racy.c"],
        &["analyze", "--seed", "3", "racy.c"],
    ] {
        let o = watts_in(dir.path(), args);
        assert_status(&o, 2);
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
    let o = watts_in(dir.path(), &["confirm", "--strategy", "dfs", "racy.c"]);
    assert!(stderr(&o).contains("dfs"), "{}", stderr(&o));
    // `analyze --confirm` takes the same flags; `--confirm-timeout` is still the budget.
    let o = watts_in(
        dir.path(),
        &[
            "analyze",
            "--confirm",
            "--strategy",
            "pct",
            "--pct-depth",
            "2",
            "--confirm-timeout",
            "2",
            "racy.c",
        ],
    );
    assert_status(&o, 1);
    assert!(
        stdout(&o).contains("found by pct sampling"),
        "{}",
        stdout(&o)
    );
}

// ---- The cross-check: the analysis and the explorer never contradict each other. ----

/// The annotation on the line of each assertion (`PROVED`, `FAILS!`, ...), by line number.
fn annotations(text: &str) -> Vec<(u32, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let (_, comment) = l.split_once("//")?;
            let word = comment.split_whitespace().next()?;
            let word = word.split('(').next().unwrap_or(word);
            matches!(
                word,
                "PROVED" | "UNREACHABLE" | "FAILS!" | "MAY-FAIL" | "TODO"
            )
            .then(|| (i as u32 + 1, word.to_string()))
        })
        .collect()
}

struct CrossCheck {
    /// Assertions proved by running every execution (`explore::proof`).
    proved_by_exploration: usize,
    violated: usize,
    fails_annotated: usize,
    fails_confirmed: usize,
    /// `file:line` of the FAILS! assertions without a witness.
    unconfirmed: Vec<String>,
}

/// The driver harness of a corpus program's `//PARAM:` lines (`--init`, `--entry`,
/// `--entries-from`, `--entries-exported`), if any, and its `--assume-no-write` functions.
fn harness_of(text: &str) -> (Option<watts::config::HarnessSpec>, Vec<String>) {
    let mut h = watts::config::HarnessSpec::default();
    let mut no_write = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("//PARAM:") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            match w {
                "--" => break,
                "--init" => h.init = words.next().map(String::from),
                "--entry" => h.entries.extend(words.next().and_then(|e| e.parse().ok())),
                "--entries-from" => h.tables.extend(
                    words
                        .next()
                        .and_then(|e| watts::config::parse_table(e).ok()),
                ),
                "--entries-exported" => h.exported = true,
                "--assume-no-write" => no_write.extend(words.next().map(String::from)),
                _ => {}
            }
        }
    }
    (h.is_active().then_some(h), no_write)
}

/// `verdict`: an SV-COMP task's expected verdict (`Some(true)`: no error call is reachable);
/// `None` for a corpus program, whose annotations say what is true.
fn cross_check(path: &Path, args: &[String], verdict: Option<bool>) -> Result<CrossCheck, String> {
    let expected_true = verdict == Some(true);
    let mut config = watts::Config::new(vec![path.to_path_buf()]);
    config.clang_args = args.to_vec();
    (config.harness, config.assume_no_write) =
        harness_of(&std::fs::read_to_string(path).unwrap_or_default());
    let program = match watts::load_program(&config) {
        Ok(p) => p,
        Err(_) => {
            return Ok(CrossCheck {
                proved_by_exploration: 0,
                violated: 0,
                fails_annotated: 0,
                fails_confirmed: 0,
                unconfirmed: Vec::new(),
            })
        }
    };
    let outcome = watts::analysis::analyze(&program, &config).map_err(|e| e.to_string())?;
    let options = watts::config::ConfirmOptions {
        bound: 10,
        timeout: Duration::from_millis(1500),
        witness_dir: None,
        ..Default::default()
    };
    let all = (0..program.asserts.len())
        .map(watts::ir::AssertId::from)
        .collect();
    let found = watts::explore::confirm(&program, &options, &all, Vec::new())
        .map_err(|e| e.to_string())?
        .outcome;
    let deadline = std::time::Instant::now() + Duration::from_millis(1500);
    let proof = watts::explore::proof::prove(&program, &all, deadline);
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let notes = annotations(&text);
    // A proof by exploration is checked against the truth as the annotations and the
    // verdicts of the tasks say it, and against the witnesses.
    for id in &proof.proved {
        let info = &program.asserts[id.index()];
        let line = info.span.map_or(0, |s| s.line);
        let name = format!("{}:{line} `{}`", path.display(), info.condition);
        if found.violations.contains_key(id) {
            return Err(format!(
                "{name}: proved by exploration, yet an execution fails it"
            ));
        }
        if notes.iter().any(|(l, w)| *l == line && w == "FAILS!") {
            return Err(format!(
                "{name}: annotated FAILS!, yet proved by exploration"
            ));
        }
    }
    if verdict == Some(false) && !all.is_empty() && proof.proved.len() == all.len() {
        return Err(format!(
            "{}: every error call of a task whose verdict is false was proved by exploration",
            path.display()
        ));
    }
    let mut check = CrossCheck {
        proved_by_exploration: proof.proved.len(),
        violated: found.violations.len(),
        fails_annotated: notes.iter().filter(|(_, w)| w == "FAILS!").count(),
        fails_confirmed: 0,
        unconfirmed: Vec::new(),
    };
    for (line, _) in notes.iter().filter(|(_, w)| w == "FAILS!") {
        let confirmed = found.violations.keys().any(|id| {
            program.asserts[id.index()]
                .span
                .is_some_and(|s| s.line == *line)
        });
        if !confirmed {
            check.unconfirmed.push(format!("{}:{line}", path.display()));
        }
    }
    for (id, violation) in &found.violations {
        // Every witness replays from the start to the same failure.
        match watts::explore::replay(&program, violation) {
            Ok(watts::explore::Replayed::Fails { .. }) => {}
            other => {
                return Err(format!(
                    "{}: the witness of A{} does not replay: {other:?}",
                    path.display(),
                    id.index() + 1
                ))
            }
        }
        let v = &outcome.verdicts[id.index()];
        let info = &program.asserts[id.index()];
        let line = info.span.map_or(0, |s| s.line);
        let name = format!("{}:{line} `{}`", path.display(), info.condition);
        if v.verdict.holds() {
            return Err(format!(
                "{name}: {} by the analysis, yet this execution fails it: {:?}",
                watts::verdicts::Status::from(&v.verdict).name(),
                violation.steps
            ));
        }
        if expected_true {
            return Err(format!(
                "{name}: a task whose verdict is true got a witness"
            ));
        }
        match notes
            .iter()
            .find(|(l, _)| *l == line)
            .map(|(_, w)| w.as_str())
        {
            Some("FAILS!") => check.fails_confirmed += 1,
            Some(word @ ("PROVED" | "UNREACHABLE" | "MAY-FAIL" | "TODO")) => {
                return Err(format!(
                    "{name}: annotated {word} (true), yet this execution fails it: {:?}",
                    violation.steps
                ));
            }
            _ => {}
        }
    }
    Ok(check)
}

#[test]
fn no_corpus_assertion_is_both_proved_and_violated() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files = Vec::new();
    corpus_files(&root, &mut files);
    let (mut violated, mut annotated, mut confirmed, mut explored) = (0, 0, 0, 0);
    let mut errors = Vec::new();
    let mut unconfirmed = Vec::new();
    for f in &files {
        match cross_check(f, &[], None) {
            Ok(c) => {
                explored += c.proved_by_exploration;
                violated += c.violated;
                annotated += c.fails_annotated;
                confirmed += c.fails_confirmed;
                unconfirmed.extend(c.unconfirmed);
            }
            Err(e) => errors.push(e),
        }
    }
    println!(
        "corpus: {} programs, {violated} assertions violated; {confirmed} of {annotated} FAILS! assertions confirmed; {explored} proved by exploration",
        files.len()
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(explored > 0, "exploration should prove some assertions");
    println!("FAILS! without a witness: {}", unconfirmed.join(" "));
    assert!(
        confirmed > 0,
        "the explorer should confirm some real failures"
    );
}

#[test]
fn no_svcomp_task_with_a_true_verdict_gets_a_witness() {
    let dir = std::env::var_os("WATTS_SVCOMP")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/svcomp"));
    let Ok(index) = std::fs::read_to_string(dir.join("INDEX.tsv")) else {
        missing(&format!(
            "the SV-COMP subset (no {}; set WATTS_SVCOMP or provide ../shared/svcomp)",
            dir.join("INDEX.tsv").display()
        ));
        return;
    };
    let (mut false_tasks, mut witnessed, mut explored) = (0, 0, 0);
    let mut errors = Vec::new();
    for line in index.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [yml, input, model, verdict, folder, ..] = cols[..] else {
            continue;
        };
        let _ = yml;
        let path = dir.join(folder).join(input);
        let args: Vec<String> = if model == "ILP32" {
            vec!["-m32".to_string()]
        } else {
            Vec::new()
        };
        let expected_true = verdict == "true";
        match cross_check(&path, &args, Some(expected_true)) {
            Ok(c) => {
                explored += usize::from(expected_true && c.proved_by_exploration > 0);
                if !expected_true {
                    false_tasks += 1;
                    witnessed += usize::from(c.violated > 0);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    println!("svcomp: {witnessed} of {false_tasks} tasks with a false verdict got a witness; {explored} true tasks have assertions proved by exploration");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// On every corpus program small enough for the enumeration of every interleaving to finish,
/// the reduced search (states skipped, sleep sets) and the RVF search find exactly the
/// assertions it finds.
#[test]
fn the_reduced_search_finds_what_every_interleaving_finds() {
    use watts::explore::search::{explore, Budget, Strategy};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files = Vec::new();
    corpus_files(&root, &mut files);
    let (mut compared, mut mismatches) = (0, Vec::new());
    let (mut rvf_compared, mut rvf_gave_up) = (0, 0);
    for f in &files {
        let config = watts::Config::new(vec![f.clone()]);
        let Ok(program) = watts::load_program(&config) else {
            continue;
        };
        let Ok(interp) = watts::explore::Interp::new(
            &program,
            watts::explore::InterpOptions {
                bound: 3,
                ..Default::default()
            },
        ) else {
            continue;
        };
        let budget = Budget {
            executions: 20_000,
            deadline: Some(std::time::Instant::now() + Duration::from_millis(500)),
            ..Budget::default()
        };
        let naive = explore(&interp, Strategy::Naive, budget, None);
        if !naive.complete {
            continue;
        }
        let reduced = explore(&interp, Strategy::Reduced, Budget::default(), None);
        compared += 1;
        let (a, b): (Vec<_>, Vec<_>) = (
            naive.violations.keys().collect(),
            reduced.violations.keys().collect(),
        );
        if a != b || !reduced.complete {
            mismatches.push(format!("{}: naive {a:?}, reduced {b:?}", f.display()));
        }
        // The RVF search: the same assertions, unless its event model gave up (then what it
        // found is real, and it claims nothing).
        let rvf = explore(&interp, Strategy::Rvf, Budget::default(), None);
        let c: Vec<_> = rvf.violations.keys().collect();
        if rvf.unsupported.rvf_gave_up() {
            rvf_gave_up += 1;
            if !c.iter().all(|x| a.contains(x)) || rvf.exhaustive() {
                mismatches.push(format!("{}: naive {a:?}, RVF {c:?}", f.display()));
            }
        } else {
            rvf_compared += 1;
            if a != c || !rvf.complete {
                mismatches.push(format!("{}: naive {a:?}, RVF {c:?}", f.display()));
            }
        }
    }
    println!(
        "compared the searches on {compared} corpus programs (RVF on {rvf_compared}, gave up on {rvf_gave_up})"
    );
    assert!(compared >= 20, "only {compared} programs compared");
    assert!(
        rvf_compared >= 20,
        "RVF compared on only {rvf_compared} programs"
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// Needs `a == 331`, which no candidate input value is: only a forced value fails it.
const LINEAR: &str = include_str!("corpus/15-inputs/01-linear-input.c");

#[test]
fn a_witness_with_a_forced_input_replays_through_the_cli() {
    use watts::witness::{ProgramRef, Witness};
    let dir = dir_with("lin.c", LINEAR);
    let path = dir.path().join("lin.c");
    let program = watts::load_program(&watts::Config::new(vec![path.clone()])).expect("compiles");
    let interp = watts::explore::Interp::new(
        &program,
        watts::explore::InterpOptions {
            bound: 1024,
            ..Default::default()
        },
    )
    .expect("main");
    // The symbolic search when z3 is there; else the witness is built by forcing the input
    // (where tools are required, z3 must be there).
    let z3 = watts::explore::symbolic::solver::Z3::locate().is_ok();
    if !z3 {
        missing("z3 (the symbolic part; .ci/setup installs it)");
    }
    let violation = if z3 {
        let config = watts::explore::symbolic::SymbolicConfig {
            max_runs: 50,
            ..Default::default()
        };
        let (out, _) = watts::explore::symbolic::explore(&interp, &config, None);
        out.violations.into_values().next().expect("found")
    } else {
        let forced = std::sync::Arc::new([((2, 0), 331)].into());
        let budget = watts::explore::search::Budget::default();
        let out = watts::explore::search::explore(
            &interp.with_inputs(forced),
            watts::explore::search::Strategy::Reduced,
            budget,
            None,
        );
        let mut v = out.violations.into_values().next().expect("found");
        v.bound = 1024;
        v
    };
    assert!(violation
        .steps
        .iter()
        .any(|s| matches!(&s.kind, watts::explore::StepKind::Input(i) if i.value == 331)));
    let file = watts::report::witness::file(
        &Witness::from(violation),
        &program,
        ProgramRef {
            inputs: vec!["lin.c".into()],
            inputs_from_witness: vec![],
            input_args: vec![],
            clang_args: vec![],
            init: None,
            entries: vec![],
            entries_from: vec![],
            entries_exported: false,
            assume_no_write: vec![],
        },
        &|_| "lin.c".to_string(),
    );
    assert_eq!(file.version, 3);
    let text = serde_json::to_string_pretty(&file).expect("json");
    assert!(text.contains("\"input\": 331"), "{text}");
    std::fs::write(dir.path().join("w.json"), &text).expect("write");
    let o = watts_in(dir.path(), &["replay", "w.json"]);
    assert_status(&o, 1);
    assert!(stdout(&o).contains("A1 fails again"), "{}", stdout(&o));
    // Without the recorded value (a version 1 file), the alternatives choose: it does not
    // fail, since no candidate value is 331.
    let mut doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    doc["version"] = 1.into();
    for s in doc["steps"].as_array_mut().expect("steps") {
        s.as_object_mut().expect("step").remove("input");
    }
    std::fs::write(dir.path().join("v1.json"), doc.to_string()).expect("write");
    let o = watts_in(dir.path(), &["replay", "v1.json"]);
    assert_status(&o, 0);
}

/// `--strategy symbolic` and `auto` find the failure that needs `a == 331` (no candidate
/// value); the witness records the input and replays. The candidate-input searches alone
/// (`exhaustive`) cannot find it. Without z3, `--strategy symbolic` is a usage error and
/// `auto` goes on without it.
#[test]
fn symbolic_inputs_find_a_failure_no_candidate_input_reaches() {
    if watts::explore::strategy::Symbolic::available(Path::new("z3")).is_err() {
        missing("z3 (.ci/setup installs it)");
        return;
    }
    let dir = dir_with("lin.c", LINEAR);
    for strategy in ["symbolic", "auto"] {
        let wdir = format!("w-{strategy}");
        let (doc, code) = json_in(
            dir.path(),
            &[
                "--confirm",
                "--strategy",
                strategy,
                "--confirm-budget",
                "20",
                "--witness-dir",
                &wdir,
                "lin.c",
            ],
        );
        assert_eq!(code, 1, "{doc}");
        let a = &doc["assertions"][0];
        assert_eq!(a["status"], "violated", "{strategy}: {doc}");
        let by = a["found_by"].as_str().unwrap_or("");
        assert!(
            by.starts_with("the symbolic-input search"),
            "{strategy}: {by}"
        );
        let witness =
            std::fs::read_to_string(dir.path().join(&wdir).join("A1.json")).expect("witness file");
        assert!(witness.contains("\"input\": 331"), "{witness}");
        let o = watts_in(dir.path(), &["replay", &format!("{wdir}/A1.json")]);
        assert_status(&o, 1);
    }
    // Every execution with candidate inputs: none fails, and the reason says inputs were
    // restricted.
    let (doc, code) = json_in(
        dir.path(),
        &["--confirm", "--strategy", "exhaustive", "lin.c"],
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["assertions"][0]["status"], "may-fail", "{doc}");
    let reason = doc["assertions"][0]["reason"].as_str().unwrap_or("");
    assert!(reason.contains("candidate values"), "{reason}");
    // No solver: a usage error for `symbolic`, nothing said about the program.
    let no_z3 = |strategy: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_watts"))
            .args([
                "confirm",
                "--strategy",
                strategy,
                "--confirm-budget",
                "2",
                "lin.c",
            ])
            .current_dir(dir.path())
            .env("WATTS_Z3", "/nonexistent/z3")
            .output()
            .expect("run watts")
    };
    let o = no_z3("symbolic");
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("--strategy symbolic needs z3"),
        "{}",
        stderr(&o)
    );
    let o = no_z3("auto");
    assert_status(&o, 1);
    assert!(stdout(&o).contains("may fail"), "{}", stdout(&o));
}

// Witnesses (issue 18, 7): replay from any directory; untrusted clang arguments refused.

/// A witness written in one directory replays from another, and after the tree (sources and
/// witnesses together) moves; include paths given relative to where watts ran still work.
#[test]
fn a_witness_replays_from_any_directory_and_after_the_tree_moves() {
    let racy = RACY.replace(
        "#include <assert.h>",
        "#include <assert.h>\n#include \"config.h\"",
    );
    let dir = project(&[
        ("src/racy.c", &racy),
        ("inc/config.h", "#define UNUSED 1\n"),
    ]);
    let o = watts_in(
        dir.path(),
        &["confirm", "--witness-dir", "w", "src/racy.c", "--", "-Iinc"],
    );
    assert_status(&o, 1);
    let text = std::fs::read_to_string(dir.path().join("w/A1.json")).expect("witness");
    let w: serde_json::Value = serde_json::from_str(&text).expect("json");
    let input = w["program"]["inputs"][0].as_str().expect("input");
    assert!(Path::new(input).is_absolute(), "{w}");
    assert_eq!(
        w["program"]["inputs_from_witness"][0], "../src/racy.c",
        "{w}"
    );
    // From another directory, by an absolute path, and from inside the witness directory.
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("w/A1.json");
    let o = watts_in(elsewhere.path(), &["replay", file.to_str().expect("utf-8")]);
    assert_status(&o, 1);
    assert_status(&watts_in(&dir.path().join("w"), &["replay", "A1.json"]), 1);
    // The whole tree moves: the absolute paths are gone, the relative ones still fit.
    let moved = tempfile::tempdir().expect("temp dir");
    let to = moved.path().join("copy");
    let copied = std::process::Command::new("cp")
        .args([
            "-r",
            &dir.path().display().to_string(),
            &to.display().to_string(),
        ])
        .status()
        .expect("cp");
    assert!(copied.success());
    std::fs::remove_file(dir.path().join("src/racy.c")).expect("remove");
    let o = watts_in(
        elsewhere.path(),
        &["replay", &to.join("w/A1.json").display().to_string()],
    );
    assert_status(&o, 1);
    // Nothing found: a plain message and 2.
    std::fs::remove_file(to.join("src/racy.c")).expect("remove");
    let o = watts_in(
        elsewhere.path(),
        &["replay", &to.join("w/A1.json").display().to_string()],
    );
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("is not found (looked for"),
        "{}",
        stderr(&o)
    );
}

/// A witness file is untrusted input: clang arguments that would make replay run or write
/// anything (`-o`, `-fplugin=`, `-Xclang -load`, `-B`, `--config`, `@file`, `-Wl,`) are refused
/// with exit 2 and the flag named, before clang runs; meaning flags are accepted.
#[test]
fn replay_refuses_clang_arguments_that_run_or_write() {
    let dir = dir_with("racy.c", RACY);
    let o = watts_in(
        dir.path(),
        &[
            "confirm",
            "--witness-dir",
            "w",
            "racy.c",
            "--",
            "-Wall",
            "-DX=1",
        ],
    );
    assert_status(&o, 1);
    let text = std::fs::read_to_string(dir.path().join("w/A1.json")).expect("witness");
    let w: serde_json::Value = serde_json::from_str(&text).expect("json");
    // Warnings do not change the program: the witness does not keep them.
    assert_eq!(
        w["program"]["clang_args"],
        serde_json::json!(["-D", "X=1"]),
        "{w}"
    );
    let out = dir.path().join("written.o");
    let bad: [&[&str]; 9] = [
        &["-o", out.to_str().expect("utf-8")],
        &["-fplugin=/tmp/evil.so"],
        &["-fpass-plugin=/tmp/evil.so"],
        &["-Xclang", "-load", "-Xclang", "/tmp/evil.so"],
        &["-B", "/tmp"],
        &["--config", "/tmp/evil.cfg"],
        &["@/tmp/args"],
        &["-Wl,-o,/tmp/x"],
        &["-I"],
    ];
    for args in bad {
        let mut w = w.clone();
        w["program"]["clang_args"] = serde_json::json!(args);
        std::fs::write(dir.path().join("bad.json"), w.to_string()).expect("write");
        let o = watts_in(dir.path(), &["replay", "bad.json"]);
        assert_status(&o, 2);
        assert!(
            stderr(&o).contains(&format!("`{}`", args[0])),
            "{args:?}: {}",
            stderr(&o)
        );
        // The same through a compilation database's per-file flags.
        let mut w2 = w.clone();
        w2["program"]["clang_args"] = serde_json::json!([]);
        w2["program"]["input_args"] = serde_json::json!([args]);
        std::fs::write(dir.path().join("bad.json"), w2.to_string()).expect("write");
        assert_status(&watts_in(dir.path(), &["replay", "bad.json"]), 2);
    }
    assert!(!out.exists(), "replay wrote {}", out.display());
    let mut w = w.clone();
    w["program"]["clang_args"] = serde_json::json!([
        "-I",
        "inc",
        "-DN=2",
        "-UM",
        "-std=gnu11",
        "-m64",
        "-funsigned-char"
    ]);
    std::fs::write(dir.path().join("ok.json"), w.to_string()).expect("write");
    assert_status(&watts_in(dir.path(), &["replay", "ok.json"]), 1);
}

/// Issue 18, 4: a driver entry's inputs are named after their parameters, and values are shown
/// in their C type (an `unsigned int` of all ones is 4294967295, not -1); the witness still
/// replays with the value it recorded.
#[test]
fn trace_names_inputs_and_shows_unsigned_values() {
    let dir = dir_with(
        "drv.c",
        "#include <assert.h>\n\
         unsigned int count;\n\
         int my_ioctl(unsigned int cmd, signed char level) {\n\
         \x20 count = cmd;\n\
         \x20 assert(count != 4294967295u || level != -1);\n\
         \x20 return 0;\n\
         }\n",
    );
    let args = ["confirm", "--entry", "my_ioctl", "drv.c"];
    let o = watts_in(dir.path(), &args);
    assert_status(&o, 1);
    let out = stdout(&o);
    for step in [
        "my_ioctl: gets the input cmd = 4294967295",
        "my_ioctl: gets the input level = -1",
        "my_ioctl: writes count = 4294967295",
        "my_ioctl: reads count = 4294967295",
    ] {
        assert!(out.contains(step), "missing `{step}`:\n{out}");
    }
    let (doc, code) = json_in(
        dir.path(),
        &[
            "--confirm",
            "--entry",
            "my_ioctl",
            "--witness-dir",
            "w",
            "drv.c",
        ],
    );
    assert_eq!(code, 1, "{doc}");
    let steps = doc["assertions"][0]["witness"]["steps"]
        .as_array()
        .expect("steps");
    let input = steps
        .iter()
        .find(|s| s["event"] == "gets the input cmd = 4294967295")
        .unwrap_or_else(|| panic!("{doc}"));
    // The recorded value stays a number, in the IR's reading that replay forces.
    assert_eq!(input["input"], -1, "{input}");
    let o = watts_in(dir.path(), &["replay", "w/A1.json"]);
    assert_status(&o, 1);
    assert!(stdout(&o).contains("A1 fails again"), "{}", stdout(&o));
}

/// `tests/corpus/19-exploration`: each program says what a proof by exploration
/// (`explore::proof`) must find: `//PROOF: complete` (every execution is run; the assertions
/// annotated true are proved and no FAILS! assertion is), or `//PROOF: gap WORDS` (no proof is
/// attempted or finished, for the reason that names WORDS).
#[test]
fn a_proof_by_exploration_runs_every_execution_or_says_why_not() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/19-exploration");
    let mut files = Vec::new();
    corpus_files(&root, &mut files);
    assert!(files.len() >= 10, "{files:?}");
    let mut errors = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let expect = (text.lines())
            .find_map(|l| l.strip_prefix("//PROOF: "))
            .unwrap_or_else(|| panic!("{}: no //PROOF: line", f.display()))
            .to_string();
        let program = watts::load_program(&watts::Config::new(vec![f.clone()])).expect("loads");
        let all = (0..program.asserts.len())
            .map(watts::ir::AssertId::from)
            .collect();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let proof = watts::explore::proof::prove(&program, &all, deadline);
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let notes = annotations(&text);
        if let Some(words) = expect.strip_prefix("gap ") {
            let gap = proof.gap.as_ref().map(watts::report::words::gap);
            if proof.complete || !gap.unwrap_or_default().contains(words) {
                errors.push(format!(
                    "{name}: expected a gap naming `{words}`: {proof:?}"
                ));
            }
            continue;
        }
        if !proof.complete {
            errors.push(format!(
                "{name}: not every execution was run: {:?}",
                proof.gap
            ));
            continue;
        }
        for (id, info) in program.asserts.iter().enumerate() {
            let line = info.span.map_or(0, |s| s.line);
            let word = notes
                .iter()
                .find(|(l, _)| *l == line)
                .map(|(_, w)| w.as_str());
            let proved = proof.proved.contains(&watts::ir::AssertId::from(id));
            if proved != (word != Some("FAILS!")) {
                errors.push(format!(
                    "{name}:{line} ({word:?}): proved by exploration: {proved}"
                ));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Two threads write one variable at the same time; the second is also read after both
/// writes (`--check race`).
#[test]
fn a_race_is_confirmed_with_both_accesses_and_its_witness_replays() {
    let dir = dir_with("racy.c", RACY);
    let (doc, code) = json_in(
        dir.path(),
        &[
            "--check",
            "race",
            "--confirm",
            "--witness-dir",
            "w",
            "racy.c",
        ],
    );
    assert_eq!(code, 1, "{doc}");
    let r = &doc["races"][0];
    assert_eq!(r["status"], "violated", "{r}");
    assert_eq!(r["memory"], "count", "{r}");
    // The witness ends with the two accesses: two threads, lines of the race's accesses,
    // at least one a write.
    let steps = r["witness"]["steps"].as_array().expect("steps");
    let [.., x, y] = &steps[..] else {
        panic!("{r}")
    };
    assert_ne!(x["tid"], y["tid"], "{r}");
    let lines: Vec<&serde_json::Value> = (r["accesses"].as_array().expect("accesses").iter())
        .map(|a| &a["line"])
        .collect();
    assert!(
        lines.contains(&&x["line"]) && lines.contains(&&y["line"]),
        "{r}"
    );
    let event = |s: &serde_json::Value| s["event"].as_str().unwrap_or_default().to_string();
    assert!(
        event(x).starts_with("writes count") || event(y).starts_with("writes count"),
        "{r}"
    );
    // The human report says it is confirmed and shows the interleaving.
    let o = watts_in(
        dir.path(),
        &["analyze", "--check", "race", "--confirm", "racy.c"],
    );
    assert_status(&o, 1);
    let out = stdout(&o);
    assert!(out.contains("data race on `count` (confirmed)"), "{out}");
    // The witness file replays: the race happens again (exit 1).
    assert!(dir.path().join("w/R1.json").is_file());
    let o = watts_in(dir.path(), &["replay", "w/R1.json"]);
    assert_status(&o, 1);
    assert!(
        stdout(&o).contains("the race happens again"),
        "{}",
        stdout(&o)
    );
    // Without its last step but one, the schedule does not reach both accesses at once.
    let text = std::fs::read_to_string(dir.path().join("w/R1.json")).expect("read");
    let mut w: serde_json::Value = serde_json::from_str(&text).expect("json");
    let steps = w["steps"].as_array_mut().expect("steps");
    let n = steps.len();
    steps.remove(n - 3);
    std::fs::write(dir.path().join("cut.json"), w.to_string()).expect("write");
    let o = watts_in(dir.path(), &["replay", "cut.json"]);
    assert_ne!(o.status.code(), Some(1), "{}", stdout(&o));
}

/// The race check reports a pair a join orders (the thread is created through a pointer with
/// two targets, analysed apart, so no join orders it there); no execution reaches both
/// accesses at once, so it stays `may-race`, while the real race of the program is confirmed.
/// Locked accesses are no race at all.
#[test]
fn a_race_no_execution_reaches_is_not_confirmed() {
    let dir = dir_with(
        "two.c",
        include_str!("corpus/20-races/ra-39-pointer-two-targets.c"),
    );
    let (doc, code) = json_in(dir.path(), &["--confirm", "two.c"]);
    assert_eq!(code, 1, "{doc}");
    let races = doc["races"].as_array().expect("races");
    let of = |m: &str| races.iter().find(|r| r["memory"] == m).expect(m);
    let r = of("joined");
    assert_eq!(r["status"], "may-race", "{r}");
    assert!(r.get("witness").is_none(), "{r}");
    assert_eq!(of("unjoined")["status"], "violated", "{doc}");
    let dir = dir_with("locked.c", LOCKED);
    let (doc, _) = json_in(dir.path(), &["--check", "race", "--confirm", "locked.c"]);
    assert_eq!(doc["summary"]["races"], 0, "{doc}");
}

/// Ten thousand threads, one race between `main` and the last of them: the race is confirmed
/// within the default budget, at the two accesses the corpus marks. (Looking at every thread
/// after every step for two accesses at once made this take more than the budget; a step now
/// looks at the others only when its thread arrives at a race's access: 0.4 s.)
#[test]
fn a_race_among_ten_thousand_threads_is_confirmed() {
    let dir = dir_with(
        "many.c",
        include_str!("corpus/20-races/ra-20-many-threads.c"),
    );
    let (doc, code) = json_in(dir.path(), &["--check", "race", "--confirm", "many.c"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["summary"]["races"], 1, "{doc}");
    let r = &doc["races"][0];
    assert_eq!(
        (&r["memory"], &r["status"]),
        (&serde_json::json!("y"), &serde_json::json!("violated")),
        "{r}"
    );
    let steps = r["witness"]["steps"].as_array().expect("steps");
    let mut last: Vec<u64> = (steps[steps.len() - 2..].iter())
        .map(|s| s["line"].as_u64().unwrap_or(0))
        .collect();
    last.sort();
    assert_eq!(last, [17, 25], "{r}");
}

/// On every program of the race corpus, `--confirm` never confirms a race at an access
/// annotated `NO-RACE` (which races with nothing), and confirms most races annotated `RACE!`.
#[test]
fn confirmed_races_agree_with_the_race_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/20-races");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("race corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    paths.sort();
    let (mut racy, mut confirmed, mut errors) = (0, 0, Vec::new());
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("read");
        let marked = |line: u64, mark: &str| {
            (text.lines().nth(line.saturating_sub(1) as usize)).is_some_and(|l| l.contains(mark))
        };
        racy += text.lines().filter(|l| l.contains("// RACE!")).count();
        let (doc, _) = json_in(
            &dir,
            &[
                "--check",
                "race",
                "--confirm",
                "--confirm-budget",
                "2",
                path.to_str().expect("path"),
            ],
        );
        for r in doc["races"].as_array().into_iter().flatten() {
            let Some(steps) = r["witness"]["steps"].as_array() else {
                continue;
            };
            for s in &steps[steps.len().saturating_sub(2)..] {
                let line = s["line"].as_u64().unwrap_or(0);
                if marked(line, "NO-RACE") {
                    errors.push(format!("{}:{line}: NO-RACE, yet confirmed", path.display()));
                }
                if marked(line, "RACE!") {
                    confirmed += 1;
                }
            }
        }
    }
    println!("race corpus: {confirmed} confirmed accesses on lines marked RACE! ({racy} lines)");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(
        confirmed * 2 >= racy,
        "only {confirmed} of {racy} RACE! lines confirmed"
    );
}

/// Issue 20: a driver as the kernel runs it, with several entries, instances of any number
/// (`write:*`, `irq:*`) and pointer arguments (the user's buffer of `write` and `read`, a
/// `struct file`): the bug needs two instances of `write` whose buffers start with 'V', read
/// through the pointer. `confirm` passes each pointer a fresh buffer filled with an input and
/// runs rounds of the `:*` entries as an input; the witness names the buffers' bytes and
/// replays.
#[test]
fn a_driver_bug_through_user_buffers_and_instances_is_confirmed_and_replays() {
    let text = include_str!("corpus/18-drivers/dr-09-watchdog-user-buffers.c");
    let dir = dir_with("wdt.c", text);
    let harness: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("//PARAM:"))
        .expect("harness")
        .split_whitespace()
        .collect();
    let mut args = vec!["--confirm", "--confirm-budget", "20", "--witness-dir", "w"];
    args.extend(harness);
    args.push("wdt.c");
    let (doc, code) = json_in(dir.path(), &args);
    assert_eq!(code, 1, "{doc}");
    let a = (doc["assertions"].as_array().expect("assertions"))
        .iter()
        .find(|a| a["condition"] == "wdt.magic_locked <= wdt.magic")
        .expect("the assertion");
    assert_eq!(a["status"], "violated", "{a}");
    let events: Vec<&str> = (a["witness"]["steps"].as_array().expect("steps"))
        .iter()
        .filter_map(|s| s["event"].as_str())
        .collect();
    // Two writers, each given a buffer that starts with 'V' (86), both read the count first.
    let magic = events
        .iter()
        .filter(|e| e.starts_with("gets the input *buf = 86"))
        .count();
    assert!(magic >= 2, "{events:?}");
    assert!(events
        .iter()
        .any(|e| e.contains("creates thread") && e.contains("wdt_write")));
    let id = a["id"].as_str().expect("id");
    let o = watts_in(dir.path(), &["replay", &format!("w/{id}.json")]);
    assert_status(&o, 1);
    assert!(stdout(&o).contains("fails again"), "{}", stdout(&o));
}

/// A `free` (and a `realloc`) in one thread and a read of the block in another, both next:
/// `--confirm` confirms the race, its witness ending with the read and the `free` (issue 35:
/// `free` and `realloc` write the whole block, in the explorer as in the race check).
#[test]
fn a_race_with_free_is_confirmed() {
    let dir = dir_with("free.c", include_str!("corpus/20-races/ra-21-free.c"));
    let (doc, code) = json_in(dir.path(), &["--check", "race", "--confirm", "free.c"]);
    assert_eq!(code, 1, "{doc}");
    let races = doc["races"].as_array().expect("races");
    for (memory, lines) in [("heap@free.c:28", [20, 38]), ("heap@free.c:29", [21, 37])] {
        let race = (races.iter())
            .find(|r| r["memory"] == memory)
            .unwrap_or_else(|| panic!("no race on {memory}: {doc}"));
        assert_eq!(race["status"], "violated", "{race}");
        let steps = race["witness"]["steps"].as_array().expect("steps");
        let mut last: Vec<u64> = (steps[steps.len() - 2..].iter())
            .map(|s| s["line"].as_u64().unwrap_or(0))
            .collect();
        last.sort();
        assert_eq!(last, lines, "{race}");
    }
}
