//! The JSON v1 contract of the design guide: one pretty-printed object per run (`layout`).
//!
//! Invariant: fields are only ever added, never renamed or removed; `version` stays 1 until a
//! field changes meaning. Unknown positions are `null`, never 0.

use super::finding::{value_text, Finding};
use super::race::{AccessAt, RaceFinding};
use super::{distinct_notes, Report, ShownNote};
use crate::analysis::NamedRange;
use crate::limits::REPORT_ACCESSES_LISTED as ACCESSES_LISTED;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::io::{self, Write};

/// The version of the JSON contract this module writes.
const VERSION: u32 = 1;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    tool: Tool,
    config: ConfigOut,
    inputs: Vec<String>,
    assertions: Vec<Assertion<'a>>,
    /// With the race check (`--check race`, on by default): one entry per memory location.
    #[serde(skip_serializing_if = "Option::is_none")]
    races: Option<Vec<RaceOut<'a>>>,
    /// With the race check: every access of every race, each once; a race's `access_ids` index
    /// it (a location that many merged pointers reach shares its accesses with many races).
    #[serde(skip_serializing_if = "Option::is_none")]
    race_accesses: Option<Vec<AccessOut<'a>>>,
    summary: SummaryOut,
    stats: StatsOut,
    notes: Vec<NoteOut>,
    unused_suppressions: Vec<UnusedOut<'a>>,
    /// With `--html`: the invariants of every line per thread from the verdicts' fixpoints,
    /// shaped as the output of `watts invariants --format json` (without its `version`,
    /// `tool` and `inputs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    invariants: Option<serde_json::Value>,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct RaceOut<'a> {
    id: String,
    status: &'static str,
    memory: &'a str,
    /// The first `ACCESSES_LISTED` accesses that take part, in full.
    accesses: Vec<AccessOut<'a>>,
    /// How many more take part than `accesses` lists (`access_ids` has them all).
    more_accesses: usize,
    /// Every access that takes part, as indices into the document's `race_accesses`, in the
    /// order of `accesses` (which lists the first of them in full).
    access_ids: Vec<usize>,
    /// The first pairs (0-based indices into `access_ids`, whose first entries `accesses`
    /// lists) that may run at once (at most 64).
    pairs: &'a [(usize, usize)],
    /// Every pair that may run at once, as products of indices into `access_ids`: each access
    /// of `first` with each of `second`.
    pair_groups: Vec<PairGroupOut<'a>>,
    reason: &'a str,
    fingerprint: String,
    suppressed: bool,
    in_baseline: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    witness: Option<crate::witness::WitnessFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    found_by: Option<&'a str>,
}

#[derive(Serialize)]
struct PairGroupOut<'a> {
    first: &'a [usize],
    second: &'a [usize],
}

#[derive(Serialize, Clone, PartialEq, Eq, Hash)]
struct AccessOut<'a> {
    file: String,
    line: Option<u32>,
    column: Option<u32>,
    kind: &'static str,
    atomic: bool,
    thread: &'a str,
    function: &'a str,
    locks: &'a [String],
    /// How it touches the memory, when not by a plain load or store.
    #[serde(skip_serializing_if = "Option::is_none")]
    how: Option<&'a str>,
}

#[derive(Serialize)]
struct ConfigOut {
    mode: &'static str,
    domain: &'static str,
    /// What was checked: `assert`, `race`.
    checks: Vec<&'static str>,
    /// The synthesized driver harness, if any.
    harness: Option<HarnessOut>,
}

#[derive(Serialize)]
struct HarnessOut {
    init: Option<String>,
    entries: Vec<String>,
    entries_from: Vec<String>,
    entries_exported: bool,
}

#[derive(Serialize)]
struct Assertion<'a> {
    id: String,
    file: String,
    line: Option<u32>,
    column: Option<u32>,
    /// The end of the assertion call (the column after its `)`), as SARIF's region.
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<u32>,
    function: &'a str,
    condition: &'a str,
    status: &'static str,
    reason: String,
    values: Values<'a>,
    threads: &'a [String],
    fingerprint: String,
    suppressed: bool,
    in_baseline: bool,
    pruned: usize,
    explanation: Vec<FlowOut<'a>>,
    /// For a violated assertion (`--confirm`): the failing execution.
    #[serde(skip_serializing_if = "Option::is_none")]
    witness: Option<crate::witness::WitnessFile>,
    /// For a violated assertion: which search of `--confirm` found the witness.
    #[serde(skip_serializing_if = "Option::is_none")]
    found_by: Option<&'a str>,
}

#[derive(Serialize)]
struct FlowOut<'a> {
    location: &'a str,
    load: Option<PositionOut>,
    store: Option<PositionOut>,
    store_thread: Option<&'a str>,
}

#[derive(Serialize)]
struct PositionOut {
    file: String,
    line: Option<u32>,
    column: Option<u32>,
}

#[derive(Serialize)]
struct UnusedOut<'a> {
    file: String,
    line: u32,
    column: u32,
    codes: &'a [String],
    message: String,
}

#[derive(Serialize)]
struct SummaryOut {
    assertions: usize,
    proved: usize,
    unreachable: usize,
    may_fail: usize,
    violated: usize,
    suppressed: usize,
    in_baseline: usize,
    /// Memory locations that may be accessed at once (with the race check).
    #[serde(skip_serializing_if = "Option::is_none")]
    races: Option<usize>,
    /// Why the race check could not finish (then no memory is race-free).
    #[serde(skip_serializing_if = "Option::is_none")]
    races_incomplete: Option<String>,
}

#[derive(Serialize)]
struct StatsOut {
    threads: usize,
    iterations: usize,
    combinations: usize,
    infeasible: usize,
    datalog_queries: usize,
    enumerated: usize,
    budget_fallbacks: usize,
    datalog_ms: u64,
    time_ms: TimeOut,
    /// Executions explored by `--confirm` (0 without it).
    executions: u64,
}

#[derive(Serialize)]
struct TimeOut {
    frontend: u64,
    analysis: u64,
}

#[derive(Serialize)]
struct NoteOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
    message: String,
}

/// `{"x": "[0, 10]"}` in the analysis' order, in each value's C type (`"[0, 1] or
/// 4294967295"` for an unsigned range that crosses the sign boundary); a repeated name keeps
/// its first value, so that the object has unique keys.
struct Values<'a>(&'a [NamedRange]);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (i, v) in self.0.iter().enumerate() {
            if !self.0[..i].iter().any(|w| w.name == v.name) {
                map.serialize_entry(&v.name, &value_text(v))?;
            }
        }
        map.end()
    }
}

pub(super) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    super::layout::write(out, &document(report))?;
    writeln!(out)
}

/// The JSON v1 document of `report` as a value (the HTML report embeds and reads it).
pub(super) fn value(report: &Report) -> serde_json::Value {
    serde_json::to_value(document(report)).expect("the report serialises")
}

fn document(report: &Report) -> Document<'_> {
    let s = report.summary();
    let has_races = report.verdicts.races.is_some();
    let mut table = AccessTable::default();
    let races = has_races.then(|| {
        (report.races().iter())
            .map(|r| race(report, r, &mut table))
            .collect()
    });
    let stats = &report.verdicts.stats;
    Document {
        version: VERSION,
        tool: Tool {
            name: "watts",
            version: env!("CARGO_PKG_VERSION"),
        },
        config: ConfigOut {
            mode: report.config.mode.name(),
            domain: report.config.domain.name(),
            checks: [
                (report.config.checks.asserts, "assert"),
                (report.config.checks.races, "race"),
            ]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect(),
            harness: report.config.harness.as_ref().map(|h| HarnessOut {
                init: h.init.clone(),
                entries: h.entries.iter().map(|e| e.to_string()).collect(),
                entries_from: h.tables.iter().map(|e| e.table_text()).collect(),
                entries_exported: h.exported,
            }),
        },
        inputs: report
            .config
            .inputs
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect(),
        assertions: report
            .findings()
            .iter()
            .map(|f| assertion(report, f))
            .collect(),
        races,
        race_accesses: has_races.then_some(table.list),
        summary: SummaryOut {
            assertions: s.assertions,
            proved: s.proved,
            unreachable: s.unreachable,
            may_fail: s.may_fail,
            violated: s.violated,
            suppressed: s.suppressed,
            in_baseline: s.baselined,
            races: report.verdicts.races.as_ref().map(|r| r.check.races.len()),
            races_incomplete: (report.verdicts.races.as_ref())
                .and_then(|r| r.check.incomplete.as_ref())
                .map(super::words::incomplete),
        },
        stats: StatsOut {
            threads: stats.threads,
            iterations: stats.iterations,
            combinations: stats.combinations,
            infeasible: stats.infeasible,
            datalog_queries: stats.datalog_queries,
            enumerated: stats.enumerated,
            budget_fallbacks: stats.budget_fallbacks,
            datalog_ms: stats.datalog_ms,
            time_ms: TimeOut {
                frontend: report.frontend_ms,
                analysis: report.analysis_ms,
            },
            executions: report.verdicts.executions,
        },
        notes: distinct_notes(report)
            .into_iter()
            .map(|n| note(report, n))
            .collect(),
        unused_suppressions: report
            .unused_suppressions()
            .map(|s| UnusedOut {
                file: report.span_path(Some(crate::ir::Span {
                    file: s.file,
                    line: s.line,
                    col: s.column,
                })),
                line: s.line,
                column: (report.region(Some(crate::ir::Span {
                    file: s.file,
                    line: s.line,
                    col: s.column,
                })))
                .and_then(|r| r.column())
                .unwrap_or(s.column),
                codes: &s.codes,
                message: format!("`{}` suppresses nothing", s.text),
            })
            .collect(),
        invariants: (report.verdicts.invariants.as_ref()).map(super::invariants::section),
    }
}

fn position(report: &Report, span: Option<crate::ir::Span>) -> Option<PositionOut> {
    span.map(|s| PositionOut {
        file: report.span_path(Some(s)),
        line: Some(s.line).filter(|&l| l > 0),
        column: report.region(Some(s)).and_then(|r| r.column()),
    })
}

fn assertion<'a>(report: &Report, f: &Finding<'a>) -> Assertion<'a> {
    Assertion {
        id: f.label_id(),
        file: f.path.clone(),
        line: f.line,
        column: f.column,
        end_line: f.end.map(|e| e.0),
        end_column: f.end.map(|e| e.1),
        function: f.function,
        condition: &f.info.condition,
        status: f.status.name(),
        reason: f.reason.clone(),
        values: Values(f.values),
        threads: f.threads,
        fingerprint: f.fingerprint.clone(),
        suppressed: f.suppressed,
        in_baseline: f.baselined,
        pruned: f.pruned,
        explanation: f
            .explanation
            .iter()
            .map(|flow| FlowOut {
                location: &flow.location,
                load: position(report, flow.load),
                store: position(report, flow.store),
                store_thread: flow.store_thread.as_deref(),
            })
            .collect(),
        witness: f.witness.map(|w| report.witness_file(w)),
        found_by: f.found_by,
    }
}

/// The document's `race_accesses`: each access once.
#[derive(Default)]
struct AccessTable<'a> {
    list: Vec<AccessOut<'a>>,
    ids: std::collections::HashMap<AccessOut<'a>, usize>,
}

impl<'a> AccessTable<'a> {
    fn id(&mut self, a: &AccessOut<'a>) -> usize {
        if let Some(&id) = self.ids.get(a) {
            return id;
        }
        self.list.push(a.clone());
        self.ids.insert(a.clone(), self.list.len() - 1);
        self.list.len() - 1
    }
}

fn access<'a>(a: &AccessAt<'a>) -> AccessOut<'a> {
    AccessOut {
        file: a.path.to_string(),
        line: a.line,
        column: a.column,
        kind: a.access.kind.name(),
        atomic: a.access.atomic,
        thread: &a.access.thread,
        function: &a.access.function,
        locks: &a.access.locks,
        how: a.access.how.as_deref(),
    }
}

fn race<'a>(report: &'a Report, r: &RaceFinding<'a>, table: &mut AccessTable<'a>) -> RaceOut<'a> {
    let mut accesses: Vec<AccessOut<'a>> = r.accesses.iter().map(access).collect();
    let access_ids = accesses.iter().map(|a| table.id(a)).collect();
    let more_accesses = accesses.len().saturating_sub(ACCESSES_LISTED);
    accesses.truncate(ACCESSES_LISTED);
    RaceOut {
        id: r.label_id(),
        status: r.status.name(),
        memory: &r.race.memory.name,
        accesses,
        more_accesses,
        access_ids,
        pairs: &r.race.pairs,
        pair_groups: (r.race.pair_groups.iter())
            .map(|(first, second)| PairGroupOut { first, second })
            .collect(),
        reason: &r.race.reason,
        fingerprint: r.fingerprint.clone(),
        suppressed: r.suppressed,
        in_baseline: r.baselined,
        witness: r.witness.map(|w| report.witness_file(w)),
        found_by: r.found_by,
    }
}

fn note(report: &Report, n: ShownNote) -> NoteOut {
    let span = n.span;
    NoteOut {
        file: span.map(|s| report.span_path(Some(s))),
        line: span.map(|s| s.line).filter(|&l| l > 0),
        column: report.region(span).and_then(|r| r.column()),
        message: n.message,
    }
}
