//! The page's data, read from the JSON v1 document and the source texts alone: findings,
//! the marks of each source line, and the swim lanes of each witness.
//!
//! Invariant: everything here comes from the JSON document (or a source text); every witness
//! step is one row of its diagram, and every assertion, race access, store of an explanation
//! and witness step with a known line is a mark on that line of a shown file.

use crate::witness::StepOut;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The part of the JSON v1 document the page reads (unknown fields are ignored, so that the
/// page reads documents with fields added later).
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Doc {
    pub inputs: Vec<String>,
    pub config: DocConfig,
    pub assertions: Vec<DocAssertion>,
    pub races: Option<Vec<DocRace>>,
    /// Every access of every race, each once; a race's `access_ids` index it.
    pub race_accesses: Vec<DocAccess>,
    pub summary: DocSummary,
    pub notes: Vec<DocNote>,
}

impl Doc {
    /// Each race's accesses from its `access_ids` (every access; `accesses` lists only the
    /// first), when the document has them and they all resolve.
    fn resolve_accesses(&mut self) {
        // Shared: on kona, 114 races list the same 10,000 accesses.
        let table: Vec<Rc<DocAccess>> = (self.race_accesses.drain(..)).map(Rc::new).collect();
        for r in self.races.iter_mut().flatten() {
            let all: Option<Vec<Rc<DocAccess>>> = (r.access_ids.iter())
                .map(|&i| table.get(i).cloned())
                .collect();
            match all {
                Some(all) if !r.access_ids.is_empty() => {
                    r.all = all;
                    r.more_accesses = 0;
                }
                _ => r.all = r.accesses.drain(..).map(Rc::new).collect(),
            }
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DocConfig {
    pub mode: String,
    pub domain: String,
    pub checks: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DocSummary {
    pub assertions: usize,
    pub proved: usize,
    pub unreachable: usize,
    pub may_fail: usize,
    pub violated: usize,
    pub races: Option<usize>,
    pub races_incomplete: Option<String>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct DocNote {
    pub file: Option<String>,
    pub line: Option<u32>,
    pub message: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DocAssertion {
    pub id: String,
    pub file: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub function: String,
    pub condition: String,
    pub status: String,
    pub reason: String,
    pub values: BTreeMap<String, String>,
    pub threads: Vec<String>,
    pub explanation: Vec<DocFlow>,
    pub witness: Option<DocWitness>,
    pub found_by: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DocFlow {
    pub location: String,
    pub load: Option<DocPosition>,
    pub store: Option<DocPosition>,
    pub store_thread: Option<String>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct DocPosition {
    pub file: String,
    pub line: Option<u32>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DocRace {
    pub id: String,
    pub status: String,
    pub memory: String,
    pub accesses: Vec<DocAccess>,
    pub more_accesses: usize,
    pub access_ids: Vec<usize>,
    /// Every access (`resolve_accesses`).
    #[serde(skip)]
    pub all: Vec<Rc<DocAccess>>,
    pub reason: String,
    pub witness: Option<DocWitness>,
    pub found_by: Option<String>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct DocAccess {
    pub file: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub kind: String,
    pub atomic: bool,
    pub thread: String,
    pub function: String,
    pub locks: Vec<String>,
    pub how: Option<String>,
}

/// A witness as the JSON carries it (an assertion's, or a confirmed race's: the same shape);
/// only its steps are read.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DocWitness {
    pub steps: Vec<StepOut>,
}

/// A line of a shown source file: (index into `Page::files`, 1-based line).
pub type Place = (usize, u32);

/// What a mark on a source line stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// The assertion itself.
    Assertion,
    /// Access `k` of a race.
    Access(usize),
    /// The store of explanation flow `k` of an assertion.
    Store(usize),
    /// Step `n` (1-based) of the finding's witness.
    Step(usize),
}

/// A mark on a source line: which finding, what of it, its status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Index into `Page::items`.
    pub item: usize,
    pub kind: MarkKind,
}

/// An assertion or a race, as the summary lists it.
pub struct Item {
    /// `A1`, `R1`.
    pub id: String,
    pub is_race: bool,
    pub status: String,
    /// The file as the JSON names it, and where it is shown (if it is).
    pub file: String,
    pub place: Option<Place>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// The condition of an assertion, the memory of a race.
    pub title: String,
    /// The function of an assertion, the functions of a race's accesses.
    pub function: String,
    pub threads: Vec<String>,
    pub reason: String,
    /// The values of an assertion (`m = 3`).
    pub values: Vec<(String, String)>,
    /// The notes of the report on the item's lines.
    pub notes: Vec<String>,
    /// Explanation flows: memory, store place (file, line), the thread of the store.
    pub stores: Vec<Store>,
    /// Race accesses: the JSON's access and its place.
    pub accesses: Vec<(Rc<DocAccess>, Option<Place>)>,
    pub more_accesses: usize,
    pub found_by: Option<String>,
    /// Index into `Page::diagrams`.
    pub diagram: Option<usize>,
}

/// A flow an explanation names: a load of `memory` may read a store.
pub struct Store {
    /// The memory.
    pub memory: String,
    /// Where the store and the load are (file and line as the JSON names them).
    pub store_at: Option<(String, u32)>,
    pub load_at: Option<(String, u32)>,
    /// Their places on the page.
    pub store: Option<Place>,
    pub load: Option<Place>,
    /// The thread that stores.
    pub thread: Option<String>,
}

/// A shown source file.
pub struct File {
    /// The path as the JSON names it.
    pub path: String,
    /// Its text, when it could be read (without it, the page lists the lines named in it).
    pub text: Option<String>,
    /// Marks by line.
    pub marks: BTreeMap<u32, Vec<Mark>>,
}

/// One row of a swim-lane diagram: one witness step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// 1-based step number (the JSON's `step`).
    pub step: usize,
    /// Index into `Diagram::lanes`.
    pub lane: usize,
    /// The step in words.
    pub event: String,
    /// `read`, `write`, ... (`Action::op`), empty for files without actions.
    pub op: String,
    /// The row (0-based) whose write this read saw.
    pub reads_from: Option<usize>,
    /// The lane a `spawn` created or a `join` waited for.
    pub other_lane: Option<usize>,
    pub place: Option<Place>,
    /// The file and line as the JSON names them.
    pub at: Option<(String, u32)>,
}

/// A lock held by one lane from one row to another (inclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockRegion {
    pub lane: usize,
    pub from: usize,
    pub to: usize,
    pub lock: String,
}

/// A witness drawn as swim lanes: one lane per thread, one row per step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The finding it belongs to (`A1`, `R2`).
    pub owner: String,
    /// Thread names, in the order of their thread ids.
    pub lanes: Vec<String>,
    pub rows: Vec<Row>,
    pub locks: Vec<LockRegion>,
    /// The rows of the two racing accesses (a race's witness ends with them), empty for an
    /// assertion's.
    pub racing: Vec<usize>,
}

/// Everything the page shows.
pub struct Page {
    pub doc: Doc,
    pub items: Vec<Item>,
    pub files: Vec<File>,
    pub diagrams: Vec<Diagram>,
}

impl Page {
    /// The page of `doc` over the source texts `sources` (path as the JSON names files, and
    /// text). A file is shown when a finding, an access, a store or a step names it, or when it
    /// is not a system header (`/usr/...`) and its text could be read.
    pub fn new(mut doc: Doc, sources: &[(String, Option<String>)]) -> Page {
        doc.resolve_accesses();
        let mut named: BTreeSet<&str> = BTreeSet::new();
        for a in &doc.assertions {
            named.insert(&a.file);
            for f in &a.explanation {
                named.extend(f.store.iter().map(|p| p.file.as_str()));
            }
            if let Some(w) = &a.witness {
                named.extend(w.steps.iter().filter_map(|s| s.file.as_deref()));
            }
        }
        for r in doc.races.iter().flatten() {
            named.extend(r.all.iter().map(|a| a.file.as_str()));
            if let Some(w) = &r.witness {
                named.extend(w.steps.iter().filter_map(|s| s.file.as_deref()));
            }
        }
        let mut files: Vec<File> = Vec::new();
        for (path, text) in sources {
            let shown =
                named.contains(path.as_str()) || (text.is_some() && !path.starts_with("/usr/"));
            if shown && !files.iter().any(|f| &f.path == path) {
                files.push(File {
                    path: path.clone(),
                    text: text.clone(),
                    marks: BTreeMap::new(),
                });
            }
        }
        let index: BTreeMap<String, usize> = (files.iter().enumerate())
            .map(|(i, f)| (f.path.clone(), i))
            .collect();
        // The lines of a file without text are not known: any line may be named.
        let line_count: Vec<u32> = (files.iter())
            .map(|f| {
                f.text
                    .as_ref()
                    .map_or(u32::MAX, |t| t.lines().count() as u32)
            })
            .collect();
        let place = |file: &str, line: Option<u32>| -> Option<Place> {
            let i = *index.get(file)?;
            let l = line.filter(|&l| l > 0 && l <= line_count[i].max(1))?;
            Some((i, l))
        };
        let notes_at = |file: &str, line: Option<u32>| -> Vec<String> {
            (doc.notes.iter())
                .filter(|n| line.is_some() && n.line == line && n.file.as_deref() == Some(file))
                .map(|n| n.message.clone())
                .collect()
        };
        let mut items = Vec::new();
        let mut diagrams = Vec::new();
        for a in &doc.assertions {
            let diagram = a.witness.as_ref().map(|w| {
                diagrams.push(diagram(&a.id, w, &place));
                diagrams.len() - 1
            });
            items.push(Item {
                id: a.id.clone(),
                is_race: false,
                status: a.status.clone(),
                file: a.file.clone(),
                place: place(&a.file, a.line),
                line: a.line,
                column: a.column,
                title: a.condition.clone(),
                function: a.function.clone(),
                threads: a.threads.clone(),
                reason: a.reason.clone(),
                values: a.values.clone().into_iter().collect(),
                notes: notes_at(&a.file, a.line),
                stores: (a.explanation.iter())
                    .map(|f| {
                        let at = |p: &Option<DocPosition>| {
                            (p.as_ref()).and_then(|p| p.line.map(|l| (p.file.clone(), l)))
                        };
                        let pl = |p: &Option<DocPosition>| {
                            (p.as_ref()).and_then(|p| place(&p.file, p.line))
                        };
                        Store {
                            memory: f.location.clone(),
                            store_at: at(&f.store),
                            load_at: at(&f.load),
                            store: pl(&f.store),
                            load: pl(&f.load),
                            thread: f.store_thread.clone(),
                        }
                    })
                    .collect(),
                accesses: Vec::new(),
                more_accesses: 0,
                found_by: a.found_by.clone(),
                diagram,
            });
        }
        for r in doc.races.iter().flatten() {
            let diagram = r.witness.as_ref().map(|w| {
                let mut d = diagram(&r.id, w, &place);
                // A confirmed race's witness ends with the two accesses that race.
                d.racing = (d.rows.len().saturating_sub(2)..d.rows.len()).collect();
                diagrams.push(d);
                diagrams.len() - 1
            });
            let first = r.all.first();
            let mut threads: Vec<String> = Vec::new();
            let mut functions: Vec<String> = Vec::new();
            for a in &r.all {
                if !threads.contains(&a.thread) {
                    threads.push(a.thread.clone());
                }
                if !functions.contains(&a.function) {
                    functions.push(a.function.clone());
                }
            }
            let mut notes = Vec::new();
            for a in &r.all {
                for n in notes_at(&a.file, a.line) {
                    if !notes.contains(&n) {
                        notes.push(n);
                    }
                }
            }
            items.push(Item {
                id: r.id.clone(),
                is_race: true,
                status: r.status.clone(),
                file: first.map(|a| a.file.clone()).unwrap_or_default(),
                place: first.and_then(|a| place(&a.file, a.line)),
                line: first.and_then(|a| a.line),
                column: first.and_then(|a| a.column),
                title: r.memory.clone(),
                function: functions.join(", "),
                threads,
                reason: r.reason.clone(),
                values: Vec::new(),
                notes,
                stores: Vec::new(),
                accesses: (r.all.iter())
                    .map(|a| (Rc::clone(a), place(&a.file, a.line)))
                    .collect(),
                more_accesses: r.more_accesses,
                found_by: r.found_by.clone(),
                diagram,
            });
        }
        // The marks, in item order, each once per line and kind.
        for (i, item) in items.iter().enumerate() {
            let mut add = |p: Option<Place>, kind: MarkKind| {
                if let Some((f, l)) = p {
                    let marks = files[f].marks.entry(l).or_default();
                    let mark = Mark { item: i, kind };
                    if !marks.contains(&mark) {
                        marks.push(mark);
                    }
                }
            };
            if !item.is_race {
                add(item.place, MarkKind::Assertion);
            }
            for (k, (_, p)) in item.accesses.iter().enumerate() {
                add(*p, MarkKind::Access(k));
            }
            for (k, s) in item.stores.iter().enumerate() {
                add(s.store, MarkKind::Store(k));
            }
            if let Some(d) = item.diagram {
                for r in &diagrams[d].rows {
                    add(r.place, MarkKind::Step(r.step));
                }
            }
        }
        Page {
            doc,
            items,
            files,
            diagrams,
        }
    }
}

/// The swim lanes of witness `w` of finding `owner`.
fn diagram(
    owner: &str,
    w: &DocWitness,
    place: &dyn Fn(&str, Option<u32>) -> Option<Place>,
) -> Diagram {
    // One lane per thread id that moves or is created or joined, in id order.
    let mut names: BTreeMap<usize, String> = BTreeMap::new();
    for s in &w.steps {
        names.insert(s.tid, s.thread.clone());
    }
    for s in &w.steps {
        if let Some(t) = s.action.as_ref().and_then(|a| a.thread) {
            names.entry(t).or_insert_with(|| format!("thread {t}"));
        }
    }
    let lane_of: BTreeMap<usize, usize> =
        (names.keys().enumerate()).map(|(i, &t)| (t, i)).collect();
    let row_of: BTreeMap<usize, usize> = (w.steps.iter().enumerate())
        .map(|(i, s)| (s.step, i))
        .collect();
    let rows: Vec<Row> = (w.steps.iter())
        .map(|s| {
            let action = s.action.as_ref();
            Row {
                step: s.step,
                lane: lane_of[&s.tid],
                event: s.event.clone(),
                op: action.map(|a| a.op.clone()).unwrap_or_default(),
                reads_from: (action.and_then(|a| a.reads_from))
                    .and_then(|n| row_of.get(&n).copied()),
                other_lane: (action.and_then(|a| a.thread)).and_then(|t| lane_of.get(&t).copied()),
                place: s.file.as_deref().and_then(|f| place(f, s.line)),
                at: s.file.clone().zip(s.line),
            }
        })
        .collect();
    // Lock regions: from a lane's lock of `m` to its unlock of `m` (or the last row).
    let mut locks = Vec::new();
    let mut open: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for (i, (r, s)) in rows.iter().zip(&w.steps).enumerate() {
        let Some(m) = s.action.as_ref().and_then(|a| a.memory.clone()) else {
            continue;
        };
        match r.op.as_str() {
            "lock" => {
                open.entry((r.lane, m)).or_insert(i);
            }
            "unlock" => {
                if let Some(from) = open.remove(&(r.lane, m.clone())) {
                    locks.push(LockRegion {
                        lane: r.lane,
                        from,
                        to: i,
                        lock: m,
                    });
                }
            }
            _ => {}
        }
    }
    for ((lane, lock), from) in open {
        locks.push(LockRegion {
            lane,
            from,
            to: rows.len().saturating_sub(1),
            lock,
        });
    }
    Diagram {
        owner: owner.to_string(),
        lanes: names.into_values().collect(),
        rows,
        locks,
        racing: Vec::new(),
    }
}
