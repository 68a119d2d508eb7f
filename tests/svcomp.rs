//! The SV-COMP concurrency subset as a soundness check: watts must never prove a task whose
//! expected verdict is false (`reach_error()` reachable), in any mode or domain, and must not
//! crash on any task. The tasks are not ours and are not in the repository: they are read from
//! `$WATTS_SVCOMP`, else from `../shared/svcomp` beside the checkout (INDEX.tsv lists them);
//! without either the test says so and checks nothing (in CI, where `CI` is set, it fails).
//!
//! Tasks proved today are listed in `PROVED`, so that a lost proof is noticed as well.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The configurations every task runs in.
const CONFIGS: &[(&str, &str)] = &[
    ("flow-insensitive", "interval"),
    ("flow-sensitive", "interval"),
    ("constraints", "interval"),
    ("optimized", "octagon"),
];

/// `(input, mode)` pairs proved today: the task must stay proved from that mode up.
const PROVED: &[(&str, &str)] = &[
    ("pthread/indexer.i", "flow-insensitive"),
    ("pthread-ext/45_monabsex1_vs.i", "constraints"),
    // Lock protection (analysis::sync::protection).
    (
        "goblint-regression/28-race_reach_02-simple_racefree.i",
        "flow-insensitive",
    ),
    (
        "goblint-regression/28-race_reach_04-munge_racefree.i",
        "flow-insensitive",
    ),
    (
        "goblint-regression/28-race_reach_12-ptr_racefree.i",
        "flow-insensitive",
    ),
    // Thread-specific data with one key (harness::keys).
    ("pthread-divine/tls_basic.i", "flow-insensitive"),
];

fn rank(mode: &str) -> usize {
    CONFIGS.iter().position(|(m, _)| *m == mode).unwrap_or(0)
}

fn svcomp_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("WATTS_SVCOMP")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/svcomp"));
    dir.join("INDEX.tsv").is_file().then_some(dir)
}

struct Task {
    input: String,
    expected_true: bool,
}

fn tasks(dir: &Path) -> Vec<Task> {
    let index = std::fs::read_to_string(dir.join("INDEX.tsv")).expect("read INDEX.tsv");
    index
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let (input, verdict, folder) = (cols.get(1)?, cols.get(3)?, cols.get(4)?);
            Some(Task {
                input: format!("{folder}/{input}"),
                expected_true: *verdict == "true",
            })
        })
        .collect()
}

#[test]
fn no_false_task_is_proved_and_no_task_crashes() {
    let Some(dir) = svcomp_dir() else {
        common::missing("the SV-COMP subset (set WATTS_SVCOMP or provide ../shared/svcomp)");
        return;
    };
    let tasks = tasks(&dir);
    assert!(tasks.len() >= 10, "INDEX.tsv lists too few tasks");
    let jobs: Vec<(&Task, &str, &str)> = tasks
        .iter()
        .flat_map(|t| CONFIGS.iter().map(move |(m, d)| (t, *m, *d)))
        .collect();
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    let proved = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let job = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    jobs.get(*n - 1).copied()
                };
                let Some((task, mode, domain)) = job else {
                    break;
                };
                let out = Command::new(env!("CARGO_BIN_EXE_watts"))
                    .args(["analyze", "--quiet", "--check", "assert", "--mode", mode])
                    .args(["--domain", domain])
                    .args(["--format", "gnu"])
                    .arg(dir.join(&task.input))
                    .args(["--", "-m32"])
                    .output()
                    .expect("run watts");
                let code = out.status.code();
                let tag = format!("{} [{mode}/{domain}]", task.input);
                match code {
                    Some(0) if !task.expected_true => failures
                        .lock()
                        .unwrap()
                        .push(format!("{tag}: proved, but the error is reachable")),
                    Some(0) => proved.lock().unwrap().push((task.input.clone(), mode)),
                    Some(1) | Some(2) => {}
                    _ => failures.lock().unwrap().push(format!(
                        "{tag}: exit {code:?}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    )),
                }
            });
        }
    });
    let proved = proved.into_inner().unwrap();
    let mut failures = failures.into_inner().unwrap();
    for (input, from) in PROVED {
        for (mode, domain) in CONFIGS.iter().filter(|(m, _)| rank(m) >= rank(from)) {
            if !proved.iter().any(|(i, m)| i == input && m == mode) {
                failures.push(format!("{input} [{mode}/{domain}]: no longer proved"));
            }
        }
    }
    println!(
        "svcomp: {} tasks, {} true; proved per configuration: {:?}",
        tasks.len(),
        tasks.iter().filter(|t| t.expected_true).count(),
        CONFIGS
            .iter()
            .map(|(m, d)| (m, d, proved.iter().filter(|(_, pm)| pm == m).count()))
            .collect::<Vec<_>>()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// True tasks `--svcomp` proves by running every execution (`explore::proof`), beyond those in
/// `PROVED`: they must stay proved.
const PROVED_BY_EXPLORATION: &[&str] = &[
    "pthread/fib_bench-1.i",
    "pthread/triangular-1.i",
    "pthread/sync01.i",
    "pthread/bigshot_s.i",
    "pthread-ext/16_peterson.i",
    "pthread-atomic/peterson.i",
    "pthread-atomic/read_write_lock-1.i",
    "pthread-atomic/time_var_mutex.i",
    "pthread-divine/condvar.i",
];

/// `--svcomp` as a competition runs it (analysis, then --confirm with its default budget of 10 s,
/// whose 3 s share for proofs by exploration leaves room on a loaded 2-core machine): `true`
/// only for tasks whose verdict is true, `false` only for tasks whose verdict is false.
#[test]
fn svcomp_answers_are_never_wrong() {
    let Some(dir) = svcomp_dir() else {
        common::missing("the SV-COMP subset (set WATTS_SVCOMP or provide ../shared/svcomp)");
        return;
    };
    let tasks = tasks(&dir);
    let next = Mutex::new(0usize);
    let answers = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let task = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    tasks.get(*n - 1)
                };
                let Some(task) = task else { break };
                let out = Command::new(env!("CARGO_BIN_EXE_watts"))
                    .args(["analyze", "--quiet", "--svcomp", "--confirm-budget", "10"])
                    .args(["--format", "gnu"])
                    .arg(dir.join(&task.input))
                    .args(["--", "-m32"])
                    .output()
                    .expect("run watts");
                let text = String::from_utf8_lossy(&out.stdout);
                let answer = ["true", "false", "unknown"]
                    .into_iter()
                    .find(|a| text.contains(&format!("SV-COMP result: {a}")))
                    .unwrap_or("none");
                answers.lock().unwrap().push((task, answer));
            });
        }
    });
    let answers = answers.into_inner().unwrap();
    let mut failures = Vec::new();
    for (task, answer) in &answers {
        let wrong = match *answer {
            "true" => !task.expected_true,
            "false" => task.expected_true,
            "unknown" => false,
            _ => true,
        };
        if wrong {
            failures.push(format!("{}: answered {answer}", task.input));
        }
    }
    for input in PROVED_BY_EXPLORATION {
        if !answers
            .iter()
            .any(|(t, a)| t.input == *input && *a == "true")
        {
            failures.push(format!("{input}: no longer proved by --svcomp"));
        }
    }
    let count = |a: &str| answers.iter().filter(|(_, x)| *x == a).count();
    println!(
        "svcomp --svcomp: {} true, {} false, {} unknown of {} tasks",
        count("true"),
        count("false"),
        count("unknown"),
        answers.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A thread created through a call with two possible targets and joined: race-free, but the
/// race check does not see the join.
const TWO_TARGET_JOIN: &str = "#include <pthread.h>
pthread_t h;
int joined, which;
static void *worker(void *a) { (void)a; joined = 1; return 0; }
static void spawn_a(void) { pthread_create(&h, 0, worker, 0); }
static void spawn_b(void) { pthread_create(&h, 0, worker, 0); }
int main(void) {
    void (*f)(void) = which ? spawn_a : spawn_b;
    f();
    pthread_join(h, 0);
    return joined;
}
";

/// `--property no-data-race` (by name or as a `.prp` file): `false` only with a confirmed race,
/// `true` only when the race check finds none (the barrier task, ordered by its barrier); a
/// false alarm no execution confirms stays `unknown`.
#[test]
fn the_no_data_race_property_is_answered_only_when_sure() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let answer = |file: &Path, property: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_watts"))
            .args(["analyze", "--quiet", "--svcomp", "--property", property])
            .arg(file)
            .output()
            .expect("run watts");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        ["true", "false", "unknown"]
            .into_iter()
            .find(|a| text.contains(&format!("SV-COMP result: {a}")))
            .unwrap_or("none")
            .to_string()
    };
    let racy = corpus.join("00-readme/counter.c");
    assert_eq!(answer(&racy, "no-data-race"), "false");
    // The same program's assertion is the property `unreach-call`: violated as well.
    assert_eq!(answer(&racy, "unreach-call"), "false");
    assert_eq!(
        answer(&corpus.join("05-threads/08-mutex.c"), "no-data-race"),
        "true"
    );
    // Barrier phases order ra-19's accesses: its verdict is true.
    assert_eq!(
        answer(&corpus.join("20-races/ra-19-barrier.c"), "no-data-race"),
        "true"
    );
    // A join the check does not see (the creator is called through a pointer with two
    // targets, analysed apart): a race is reported, none is confirmed, so `unknown`.
    let two = tempfile::tempdir().expect("temp dir");
    let two_c = two.path().join("two.c");
    std::fs::write(&two_c, TWO_TARGET_JOIN).expect("write");
    assert_eq!(answer(&two_c, "no-data-race"), "unknown");
    let prp = tempfile::tempdir().expect("temp dir");
    let file = prp.path().join("no-data-race.prp");
    std::fs::write(&file, "CHECK( init(main()), LTL(G ! data-race) )\n").expect("write");
    assert_eq!(answer(&racy, file.to_str().expect("path")), "false");
    if let Some(dir) = svcomp_dir() {
        let task = dir.join("pthread-ext/40_barrier_vf.i");
        if task.is_file() {
            assert_ne!(answer(&task, "no-data-race"), "false", "{}", task.display());
        }
    }
}
