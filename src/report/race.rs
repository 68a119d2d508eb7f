//! The race findings every format renders: one per memory location of the race check, with its
//! accesses resolved to source positions.
//!
//! Each `RaceFinding` (`R1`...) has its accesses placed, its suppression (`watts-ignore(data-race)`
//! on any access line) and baseline marks, and a fingerprint (memory and functions, not lines).
//! Every format renders races after the assertions, and `Report::race_line` closes the human
//! report.

use super::Report;
use crate::analysis::races::{Race, RaceAccess};
use crate::ir::Span;
use crate::verdicts::RaceStatus;
use std::sync::Arc;

/// The diagnostic code (and SARIF rule) of a data race.
pub const CODE: &str = "data-race";

/// One access of a race with its position.
#[derive(Clone, Debug)]
pub struct AccessAt<'a> {
    /// The access.
    pub access: &'a RaceAccess,
    /// Its file (shared by the accesses of one place).
    pub path: Arc<str>,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// 1-based column in characters, when known.
    pub column: Option<u32>,
}

impl AccessAt<'_> {
    /// `write in `worker` holding `m``, `read in `main` (no lock)`, with how it accesses.
    pub fn describe(&self) -> String {
        let a = self.access;
        let atomic = if a.atomic { "atomic " } else { "" };
        let how = a
            .how
            .as_ref()
            .map(|h| format!(" by {h}"))
            .unwrap_or_default();
        let locks = if a.locks.is_empty() {
            "holding no lock".to_string()
        } else {
            let names: Vec<String> = a.locks.iter().map(|l| format!("`{l}`")).collect();
            format!("holding {}", names.join(", "))
        };
        format!("{atomic}{}{how} in `{}`, {locks}", a.kind.name(), a.thread)
    }

    /// `path:line:col`.
    pub fn position(&self) -> String {
        super::printable::position(&self.path, self.line, self.column)
    }
}

/// One race as every format shows it.
#[derive(Clone, Debug)]
pub struct RaceFinding<'a> {
    /// Its index among the races (`R1` is 0).
    pub index: usize,
    /// The race.
    pub race: &'a Race,
    /// Whether an execution reaches it.
    pub status: RaceStatus,
    /// The execution that reaches both accesses at once (`--confirm`).
    pub witness: Option<&'a crate::witness::Witness>,
    /// Which search of `--confirm` found it.
    pub found_by: Option<&'a str>,
    /// Its accesses with their positions.
    pub accesses: Vec<AccessAt<'a>>,
    /// Hidden by a `watts-ignore(data-race)` comment on one of its accesses' lines.
    pub suppressed: bool,
    /// Matched a race of the baseline.
    pub baselined: bool,
    /// What identifies it across runs when lines move: the memory and the functions of its
    /// accesses.
    pub fingerprint: String,
}

impl RaceFinding<'_> {
    /// `R1`, `R2`, ... (1-based), the id of JSON and SARIF.
    pub fn label_id(&self) -> String {
        format!("R{}", self.index + 1)
    }

    /// The message: `data race on `dev.count``.
    pub fn headline(&self) -> String {
        match self.status {
            RaceStatus::MayRace => format!("data race on `{}`", self.race.memory.name),
            RaceStatus::Violated => {
                format!("data race on `{}` (confirmed)", self.race.memory.name)
            }
        }
    }

    /// Whether it makes the exit status 1 and is shown by default.
    pub fn is_new(&self) -> bool {
        !self.suppressed && !self.baselined
    }

    /// The first access, where the finding is placed.
    pub fn first(&self) -> Option<&AccessAt<'_>> {
        self.accesses.first()
    }

    /// The spans of its accesses.
    pub fn spans(&self) -> impl Iterator<Item = Span> + '_ {
        self.accesses.iter().filter_map(|a| a.access.span)
    }
}

pub(super) fn collect(report: &Report) -> Vec<RaceFinding<'_>> {
    let Some(races) = &report.verdicts.races else {
        return Vec::new();
    };
    let places = report.race_places.get_or_init(|| places(report));
    (0..races.check.races.len())
        .filter_map(|index| races.get(index).map(|r| (index, r)))
        .map(|(index, (race, status, found))| {
            let accesses: Vec<AccessAt> = (race.accesses.iter().zip(&places[index]))
                .map(|(access, (path, line, column))| AccessAt {
                    access,
                    path: path.clone(),
                    line: *line,
                    column: *column,
                })
                .collect();
            let mut functions: Vec<&str> =
                race.accesses.iter().map(|a| a.function.as_str()).collect();
            functions.sort_unstable();
            functions.dedup();
            RaceFinding {
                index,
                race,
                status,
                witness: found.map(|f| &f.witness),
                found_by: found.and_then(|f| f.found_by.as_deref()),
                accesses,
                suppressed: report.race_suppressed.get(index).copied().unwrap_or(false),
                baselined: (report.race_baselined.as_ref())
                    .and_then(|b| b.get(index).copied())
                    .unwrap_or(false),
                fingerprint: format!("{}:{}", race.memory.name, functions.join(",")),
            }
        })
        .collect()
}

/// An access's file, line and column.
pub(super) type PlaceOf = (Arc<str>, Option<u32>, Option<u32>);

/// Per race, per access: its file, line and column, resolved once per distinct span.
pub(super) type Places = Vec<Vec<PlaceOf>>;

fn places(report: &Report) -> Places {
    let Some(races) = &report.verdicts.races else {
        return Vec::new();
    };
    let check = &races.check;
    let mut memo: std::collections::HashMap<Option<Span>, PlaceOf> =
        std::collections::HashMap::new();
    (check.races.iter())
        .map(|race| {
            (race.accesses.iter())
                .map(|a| {
                    memo.entry(a.span)
                        .or_insert_with(|| {
                            let region = report.region(a.span);
                            (
                                Arc::from(report.span_path(a.span)),
                                a.span.map(|s| s.line).filter(|&l| l > 0),
                                region.and_then(|r| r.column()),
                            )
                        })
                        .clone()
                })
                .collect()
        })
        .collect()
}
