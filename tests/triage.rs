//! Issue 36: the triage of what watts reports on real code. `tests/triage/PROGRAM.toml` holds,
//! for each program of `../shared/realprograms` (not ours to ship: the test reads it beside the
//! checkout), every race watts reported when the file was written, judged by hand: `real` (a C11
//! data race in some execution of the program as it is really run) or `false`, with the cause
//! (the causes of issue 36's table) and why.
//!
//! An entry names a race by its memory and one of its pairs of accesses (`line:col kind
//! function` on each side); a `real` entry names a pair that really races.
//!
//! The test analyses each program (default options, JSON) and fails when a pair judged real is
//! in no reported race, whatever memory the race names (a better name for the same location
//! must not hide it). It prints, per program and in all, the races reported, the real ones kept,
//! the false alarms still reported (per cause) and the reported races no entry names
//! (untriaged: new since the file was written, or renamed), which are listed so that they can be
//! judged; the false-alarm share is false / (real + false) over the triaged races reported.

mod common;

use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// One judged race of a triage file.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Entry {
    #[serde(default)]
    id: Option<String>,
    memory: String,
    first: String,
    second: String,
    verdict: Verdict,
    #[serde(default)]
    cause: Option<Cause>,
    why: String,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Verdict {
    Real,
    False,
}

/// Why a race judged false was reported: the rows of issue 36's table.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
enum Cause {
    MergedPointers,
    CallbackAsThread,
    LockIdiom,
    SharedLocal,
    InfeasiblePath,
    Ordering,
    HeapSite,
    LostAddress,
    Other,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Triage {
    program: String,
    /// The commit whose report was judged.
    judged_at: String,
    #[serde(default)]
    race: Vec<Entry>,
}

/// A reported race: its memory and its pairs, as products of sets of access locations.
struct Reported {
    memory: String,
    groups: Vec<(HashSet<String>, HashSet<String>)>,
}

impl Reported {
    fn has_pair(&self, a: &str, b: &str) -> bool {
        (self.groups.iter())
            .any(|(f, s)| (f.contains(a) && s.contains(b)) || (f.contains(b) && s.contains(a)))
    }

    /// One of its pairs, to name it when no entry does.
    fn some_pair(&self) -> String {
        let (f, s) = &self.groups[0];
        let (mut f, mut s): (Vec<_>, Vec<_>) = (f.iter().collect(), s.iter().collect());
        f.sort();
        s.sort();
        format!("{} / {}", f[0], s[0])
    }
}

fn location(a: &Value) -> String {
    format!(
        "{}:{} {} {}",
        a["line"],
        a["column"],
        a["kind"].as_str().expect("kind"),
        a["function"].as_str().expect("function")
    )
}

fn reported(doc: &Value) -> Vec<Reported> {
    let table = doc["race_accesses"].as_array().expect("race_accesses");
    let races = doc["races"].as_array().expect("races");
    (races.iter())
        .map(|r| {
            let ids: Vec<usize> = (r["access_ids"].as_array().expect("access_ids").iter())
                .map(|i| i.as_u64().expect("id") as usize)
                .collect();
            let side = |v: &Value| -> HashSet<String> {
                (v.as_array().expect("side").iter())
                    .map(|p| location(&table[ids[p.as_u64().expect("position") as usize]]))
                    .collect()
            };
            Reported {
                memory: r["memory"].as_str().expect("memory").to_string(),
                groups: (r["pair_groups"].as_array().expect("pair_groups").iter())
                    .map(|g| (side(&g["first"]), side(&g["second"])))
                    .collect(),
            }
        })
        .collect()
}

/// The figures of one program.
#[derive(Default)]
struct Figures {
    judged_at: String,
    reported: usize,
    real_kept: usize,
    false_kept: BTreeMap<Cause, usize>,
    untriaged: Vec<String>,
    lost: Vec<String>,
}

fn check(triage: &Triage, doc: &Value) -> Figures {
    let races = reported(doc);
    let mut fig = Figures {
        judged_at: triage.judged_at.clone(),
        reported: races.len(),
        ..Figures::default()
    };
    let mut named = vec![false; races.len()];
    for e in &triage.race {
        let same = |r: &Reported| r.memory == e.memory && r.has_pair(&e.first, &e.second);
        for (i, r) in races.iter().enumerate() {
            named[i] |= same(r);
        }
        match e.verdict {
            Verdict::Real => {
                if races.iter().any(|r| r.has_pair(&e.first, &e.second)) {
                    fig.real_kept += 1;
                } else {
                    fig.lost.push(format!(
                        "{} {}: {} / {} ({})",
                        e.id.as_deref().unwrap_or("-"),
                        e.memory,
                        e.first,
                        e.second,
                        e.why
                    ));
                }
            }
            Verdict::False => {
                if races.iter().any(same) {
                    let cause = e.cause.unwrap_or_else(|| {
                        panic!("{}: {} is false without a cause", triage.program, e.memory)
                    });
                    *fig.false_kept.entry(cause).or_default() += 1;
                }
            }
        }
    }
    for (r, named) in races.iter().zip(named) {
        if named {
            continue;
        }
        // A race whose pairs changed (some gone since the file was written) at a location
        // whose every judged race was false: its pairs are among those judged (the analysis
        // only drops pairs of a location it keeps), so it counts as false under that cause.
        let at: Vec<&Entry> = (triage.race.iter())
            .filter(|e| e.memory == r.memory)
            .collect();
        match at.first() {
            Some(e) if at.iter().all(|e| e.verdict == Verdict::False) => {
                *fig.false_kept.entry(e.cause.expect("checked")).or_default() += 1;
            }
            _ => fig
                .untriaged
                .push(format!("{}: {}", r.memory, r.some_pair())),
        }
    }
    fig
}

fn triage_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/triage");
    let mut files: Vec<PathBuf> = (std::fs::read_dir(&dir).expect("tests/triage"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

fn load(path: &Path) -> Triage {
    let text = std::fs::read_to_string(path).expect("read a triage file");
    let t: Triage = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        path.file_stem().and_then(|s| s.to_str()),
        Some(t.program.as_str()),
        "{}: `program` must name the file",
        path.display()
    );
    for e in &t.race {
        assert!(
            e.verdict == Verdict::Real || e.cause.is_some(),
            "{}: {} ({} / {}) is false without a cause",
            t.program,
            e.memory,
            e.first,
            e.second
        );
        assert!(
            !e.why.trim().is_empty(),
            "{}: {} has no why",
            t.program,
            e.memory
        );
    }
    t
}

/// The real programs whose races are not judged yet: every other program of the collection
/// must have a triage file.
const NOT_YET: &[&str] = &[];

/// Every triage file parses and names its program.
#[test]
fn the_triage_files_are_well_formed() {
    let files = triage_files();
    assert!(files.len() >= 9, "a triage file per real program");
    for f in &files {
        load(f);
    }
}

#[test]
fn every_race_judged_real_is_still_reported() {
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realprograms");
    if !real.is_dir() {
        common::missing("the real programs (../shared/realprograms beside the checkout)");
        return;
    }
    let triages: Vec<Triage> = triage_files().iter().map(|f| load(f)).collect();
    for e in std::fs::read_dir(&real)
        .expect("the real programs")
        .filter_map(Result::ok)
    {
        let path = e.path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_some_and(|x| x == "c") && !NOT_YET.contains(&name) {
            assert!(
                triages.iter().any(|t| t.program == name),
                "{name}.c has no triage file (tests/triage/{name}.toml)"
            );
        }
    }
    // Two at a time (the machine has two cores; kona, pigz and siege take 15-20 s each).
    let queue = std::sync::Mutex::new(triages.iter());
    let figures: Vec<(String, Figures)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    while let Some(t) = { queue.lock().unwrap().next() } {
                        let file = real.join(format!("{}.c", t.program));
                        assert!(file.is_file(), "no {}", file.display());
                        let (doc, status) = common::json_in(&real, &[file.to_str().unwrap()]);
                        assert!(status == 0 || status == 1, "{}: exit {status}", t.program);
                        out.push((t.program.clone(), check(t, &doc)));
                    }
                    out
                })
            })
            .collect();
        let mut all: Vec<_> = workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    });
    let mut total = Figures::default();
    println!("program        judged at  reported  real  false  untriaged");
    for (name, f) in &figures {
        let false_n: usize = f.false_kept.values().sum();
        println!(
            "{name:<14} {:>9} {:>9} {:>5} {:>6} {:>10}",
            f.judged_at,
            f.reported,
            f.real_kept,
            false_n,
            f.untriaged.len()
        );
        for u in &f.untriaged {
            println!("  untriaged {name}: {u}");
        }
        total.reported += f.reported;
        total.real_kept += f.real_kept;
        for (c, n) in &f.false_kept {
            *total.false_kept.entry(*c).or_default() += n;
        }
        total.untriaged.extend(f.untriaged.iter().cloned());
        total
            .lost
            .extend(f.lost.iter().map(|l| format!("{name}: {l}")));
    }
    let false_n: usize = total.false_kept.values().sum();
    println!(
        "in all: {} reported, {} real, {} false ({:.0}% of the triaged), {} untriaged",
        total.reported,
        total.real_kept,
        false_n,
        100.0 * false_n as f64 / (false_n + total.real_kept).max(1) as f64,
        total.untriaged.len()
    );
    println!("false alarms by cause: {:?}", total.false_kept);
    assert!(
        total.lost.is_empty(),
        "races judged real that are no longer reported:\n{}",
        total.lost.join("\n")
    );
}
