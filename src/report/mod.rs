//! Reports: one [`Report`] per run, rendered as human diagnostics, GNU lines, JSON or SARIF.
//!
//! Invariant: it reads the program and the outcome and never changes a verdict, except that an
//! assertion the analysis gave no verdict is shown as `may-fail` (never as proved); suppressions
//! and baselines change only what is hidden and the exit status (JSON keeps them as `suppressed`
//! and `in_baseline`). It writes every output format; serde is used only here, in
//! `explore::witness` (witness files) and in `project` (watts.toml, compilation databases), which
//! tests/layering.rs checks.
//!
//! `Report::new` groups the notes (`group_notes`): each once, on one line (a source continuation
//! `\\` that left a backslash and a break is undone), and the notes that differ only in the
//! function they name first become one note with a count and at most ten names. Positions go
//! through `Report::region` (`source::region`). Besides the four formats: `html` (`--html`),
//! `suggest` (`--suggest-harness`), `invariants` (`watts invariants`), `progress` (the spinner),
//! `printable` (escaping for terminals).

mod baseline;
mod finding;
mod gnu;
pub mod html;
mod human;
mod invariants;
mod json;
mod layout;
pub mod merge;
pub mod printable;
mod progress;
pub mod race;
mod sarif;
mod source;
mod suggest;
mod suppress;
pub mod witness;
pub mod words;

pub use baseline::Baseline;
pub use finding::Finding;
pub use invariants::render as render_invariants;
pub use progress::Progress;
pub use source::{call_range, Region};
pub use suggest::render as render_suggestion;
pub use suppress::Suppression;
pub use witness::write_all as write_witnesses;

use crate::config::{Config, Format};
use crate::ir::{FileId, Program, Span};
use crate::verdicts::{Status, Verdicts};
use std::io::{self, Write};

/// Everything one run produced: what was asked, what was analysed, what was concluded.
#[derive(Clone, Debug)]
pub struct Report {
    /// The configuration of the run.
    pub config: Config,
    /// The lowered program (assertion sites, source files, function names).
    pub program: Program,
    /// Verdicts, notes and counters.
    pub verdicts: Verdicts,
    /// Wall time of the front end (clang, loading, lowering), in milliseconds.
    pub frontend_ms: u64,
    /// Wall time of the analysis, in milliseconds.
    pub analysis_ms: u64,
    /// The version of the LLVM library the front end used (`(19, 1, 7)`).
    pub llvm_version: (u32, u32, u32),
    /// The `watts-ignore` comments of the source files, with whether each hid a finding.
    pub suppressions: Vec<Suppression>,
    /// Per assertion (indexed like `Program::asserts`): hidden by a suppression.
    pub suppressed: Vec<bool>,
    /// Per assertion: matched a finding of the baseline (`None` without `--baseline`).
    pub baselined: Option<Vec<bool>>,
    /// Per race (indexed like `RaceCheck::races`): hidden by a suppression on one of its
    /// accesses' lines.
    pub race_suppressed: Vec<bool>,
    /// Per race: matched a race of the baseline (`None` without `--baseline`).
    pub race_baselined: Option<Vec<bool>>,
    /// Per race, where its accesses are (resolved once).
    race_places: std::sync::OnceLock<race::Places>,
    /// Per source file (indexed like `Program::files`), where its lines start; built when a
    /// region is first asked for.
    lines: std::sync::OnceLock<Vec<Option<source::LineIndex>>>,
}

/// How long the parts of a run took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// Wall time of the front end (clang, loading, lowering), in milliseconds.
    pub frontend_ms: u64,
    /// Wall time of the analysis (and `--confirm`), in milliseconds.
    pub analysis_ms: u64,
}

/// A note as every format shows it: where, and what in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShownNote {
    /// Where, if it has a position.
    pub span: Option<Span>,
    /// The message.
    pub message: String,
}

/// How many assertions got each verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Assertion sites in the program.
    pub assertions: usize,
    /// Proved.
    pub proved: usize,
    /// Never reached.
    pub unreachable: usize,
    /// Not proved.
    pub may_fail: usize,
    /// Fail in a concrete execution.
    pub violated: usize,
    /// May-fail or violated, but hidden by a `watts-ignore` comment.
    pub suppressed: usize,
    /// May-fail or violated, but already in the baseline.
    pub baselined: usize,
}

impl Summary {
    /// The closing line of the human and GNU output: `7 assertions: 5 proved, 1 unreachable,
    /// 1 may fail`. Proved is always named; the other counts only when non-zero.
    pub fn line(&self) -> String {
        if self.assertions == 0 {
            return "no assertions found".to_string();
        }
        let mut parts = vec![format!("{} proved", self.proved)];
        for (n, what) in [
            (self.unreachable, "unreachable"),
            (self.may_fail, "may fail"),
            (self.violated, "violated"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        let mut hidden = Vec::new();
        if self.suppressed > 0 {
            hidden.push(format!("{} suppressed", self.suppressed));
        }
        if self.baselined > 0 {
            hidden.push(format!("{} in the baseline", self.baselined));
        }
        let hidden = if hidden.is_empty() {
            String::new()
        } else {
            format!(" ({})", hidden.join(", "))
        };
        format!(
            "{}: {}{hidden}",
            plural(self.assertions, "assertion"),
            parts.join(", ")
        )
    }
}

/// `1 assertion`, `2 assertions`.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

impl Report {
    /// Bundles the results of one run, of a front end with LLVM `llvm_version`.
    pub fn new(
        config: &Config,
        program: Program,
        verdicts: Verdicts,
        timing: Timing,
        llvm_version: (u32, u32, u32),
    ) -> Report {
        let mut report = Report {
            config: config.clone(),
            suppressions: suppress::scan(&program),
            suppressed: vec![false; program.asserts.len()],
            baselined: None,
            race_suppressed: vec![
                false;
                verdicts.races.as_ref().map_or(0, |r| r.check.races.len())
            ],
            race_baselined: None,
            race_places: std::sync::OnceLock::new(),
            lines: std::sync::OnceLock::new(),
            program,
            verdicts,
            frontend_ms: timing.frontend_ms,
            analysis_ms: timing.analysis_ms,
            llvm_version,
        };
        let mut hits = Vec::new();
        for f in report.findings() {
            let (Some(span), Some(line)) = (f.info.span, f.line) else {
                continue;
            };
            if !f.is_problem() {
                continue;
            }
            for (k, s) in report.suppressions.iter().enumerate() {
                if s.covers(span.file, line, f.code()) {
                    hits.push((f.id.index(), k));
                }
            }
        }
        for (i, k) in hits {
            report.suppressed[i] = true;
            report.suppressions[k].used = true;
        }
        let mut race_hits = Vec::new();
        let races = if report.suppressions.is_empty() {
            Vec::new()
        } else {
            report.races()
        };
        for r in races {
            for span in r.spans() {
                for (k, s) in report.suppressions.iter().enumerate() {
                    if s.covers(span.file, span.line, race::CODE) {
                        race_hits.push((r.index, k));
                    }
                }
            }
        }
        for (i, k) in race_hits {
            report.race_suppressed[i] = true;
            report.suppressions[k].used = true;
        }
        report
    }

    /// Whether race `i` is neither suppressed nor in the baseline.
    fn race_is_new(&self, i: usize) -> bool {
        !self.race_suppressed.get(i).copied().unwrap_or(false)
            && !(self.race_baselined.as_ref()).is_some_and(|b| b.get(i).copied().unwrap_or(false))
    }

    /// One finding per race, in the order of the race check.
    pub fn races(&self) -> Vec<race::RaceFinding<'_>> {
        race::collect(self)
    }

    /// Whether races were checked and some memory may be accessed at once, or the check could
    /// not finish (then nothing is race-free).
    pub fn race_line(&self) -> Option<String> {
        let races = self.verdicts.races.as_ref()?;
        if let Some(why) = &races.check.incomplete {
            return Some(format!(
                "data races not checked: {}",
                words::incomplete(why)
            ));
        }
        let n = races.check.races.len();
        let hidden = (0..n).filter(|&i| !self.race_is_new(i)).count();
        let confirmed = races.confirmed.iter().filter(|f| f.is_some()).count();
        let mut parts = Vec::new();
        if confirmed > 0 {
            parts.push(format!("{confirmed} confirmed"));
        }
        if hidden > 0 {
            parts.push(format!("{hidden} suppressed or in the baseline"));
        }
        Some(match n {
            0 => "no data race".to_string(),
            n if parts.is_empty() => plural(n, "data race"),
            n => format!("{} ({})", plural(n, "data race"), parts.join(", ")),
        })
    }

    /// Marks the findings that `baseline` already has (each baseline entry excuses one).
    pub fn apply_baseline(&mut self, baseline: &Baseline) {
        let mut b = baseline.clone();
        let marks: Vec<bool> = self
            .findings()
            .iter()
            .map(|f| f.is_problem() && b.take(f.code(), &f.path, &f.fingerprint))
            .collect();
        self.baselined = Some(marks);
        let race_marks: Vec<bool> = (self.races().iter())
            .map(|r| {
                let path = r.first().map(|a| a.path.to_string()).unwrap_or_default();
                b.take(race::CODE, &path, &r.fingerprint)
            })
            .collect();
        self.race_baselined = Some(race_marks);
    }

    /// The suppressions that hid nothing (each is a warning).
    pub fn unused_suppressions(&self) -> impl Iterator<Item = &Suppression> {
        self.suppressions.iter().filter(|s| !s.used)
    }

    /// One finding per assertion site, in id order.
    pub fn findings(&self) -> Vec<Finding<'_>> {
        finding::collect(self)
    }

    /// The closing line of the human and GNU output: the assertions' summary and the races'
    /// (`7 assertions: 6 proved, 1 may fail; 2 data races`).
    pub fn closing_line(&self) -> String {
        let asserts = self.config.checks.asserts.then(|| self.summary().line());
        match (asserts, self.race_line()) {
            (Some(a), Some(r)) => format!("{a}; {r}"),
            (Some(a), None) => a,
            (None, Some(r)) => r,
            (None, None) => String::new(),
        }
    }

    /// Counts of each verdict.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for f in self.findings() {
            s.assertions += 1;
            match f.status {
                Status::Proved => s.proved += 1,
                Status::Unreachable => s.unreachable += 1,
                Status::MayFail => s.may_fail += 1,
                Status::Violated => s.violated += 1,
            }
            if f.is_problem() && f.suppressed {
                s.suppressed += 1;
            } else if f.is_problem() && f.baselined {
                s.baselined += 1;
            }
        }
        s
    }

    /// The SV-COMP answer for the `unreach-call` property: `true` when every error call and
    /// assertion is proved or unreachable (suppressions and baselines do not count), `false`
    /// when one is violated (only `--confirm`, which `--svcomp` implies, violates, and only
    /// with a witness), else `unknown`.
    pub fn svcomp_result(&self) -> &'static str {
        if self.config.property == Some(crate::config::Property::NoDataRace) {
            // `true` only from a finished race check that found nothing; `false` only with an
            // execution that reaches two conflicting accesses at once.
            let Some(races) = &self.verdicts.races else {
                return "unknown";
            };
            return if races.any_violated() {
                "false"
            } else if races.check.incomplete.is_none() && races.check.races.is_empty() {
                "true"
            } else {
                "unknown"
            };
        }
        let s = self.summary();
        if s.violated > 0 {
            // A violation has a witness: an execution that replays and fails it.
            "false"
        } else if s.may_fail == 0 {
            "true"
        } else {
            "unknown"
        }
    }

    /// The process exit status the design guide promises: 0 when every assertion is proved or
    /// unreachable (also when there is none), 1 when at least one may fail or is violated and
    /// is neither suppressed nor in the baseline.
    pub fn exit_code(&self) -> u8 {
        let races = self.verdicts.races.as_ref().is_some_and(|r| {
            r.check.incomplete.is_some() || (0..r.check.races.len()).any(|i| self.race_is_new(i))
        });
        u8::from(races || self.findings().iter().any(Finding::is_new_problem))
    }

    /// Writes the report to `out` in `format`. Colors (human format only) follow
    /// `config.color`.
    pub fn render(&self, format: Format, out: &mut dyn Write) -> io::Result<()> {
        match format {
            Format::Human => human::render(self, out),
            Format::Gnu => gnu::render(self, out),
            Format::Json => json::render(self, out),
            Format::Sarif => sarif::render(self, out),
        }
    }

    /// The witness file of `w`, for JSON and `--witness-dir`.
    pub fn witness_file(&self, w: &crate::witness::Witness) -> crate::witness::WitnessFile {
        witness::file(
            w,
            &self.program,
            self.verdicts.witness_program.clone(),
            &|s| self.span_path(Some(s)),
        )
    }

    /// Where `span` is, as every format shows it ([`source::region`]): columns in characters,
    /// recovered from the source when debug info has none (LLVM drops columns past 65535),
    /// with the end of the statement or call. Without the source text: the line and the
    /// column as recorded (bytes), no end. `None` without a span or a line.
    pub fn region(&self, span: Option<Span>) -> Option<Region> {
        let s = span.filter(|s| s.line > 0)?;
        self.source_lines(s.file)
            .and_then(|(t, index)| source::region(t, index, s.line, s.col))
            .or(Some(Region {
                line: s.line,
                column: s.col,
                end_line: 0,
                end_column: 0,
            }))
    }

    /// The text of `file` and where its lines start, when the text is there.
    pub(crate) fn source_lines(&self, file: FileId) -> Option<(&str, &source::LineIndex)> {
        let text = self.program.files.get(file.0 as usize)?.text.as_deref()?;
        let lines = self.lines.get_or_init(|| {
            (self.program.files.iter())
                .map(|f| f.text.as_deref().map(source::LineIndex::new))
                .collect()
        });
        Some((text, lines.get(file.0 as usize)?.as_ref()?))
    }

    /// The file `span` points into; without a span (or with a bad file id), the first input.
    pub(crate) fn span_path(&self, span: Option<Span>) -> String {
        match span.and_then(|s| self.program.files.get(s.file.0 as usize)) {
            Some(file) => file.path.clone(),
            None => self
                .config
                .inputs
                .first()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        }
    }
}

use crate::limits::NOTE_NAMES;

/// The notes of `report` in words, each once, with the notes that name one function and say
/// the same of it (`` `f` has no definition ...``, `` `g` is not inlined ...``) made one note
/// per kind with a count and a bounded list of names, in first-seen order: a driver with
/// forty undefined kernel functions gets one note, not forty.
pub(crate) fn distinct_notes(report: &Report) -> Vec<ShownNote> {
    let program = &report.program;
    let shown = (report.verdicts.notes.iter()).map(|n| {
        let span = match n.assertion() {
            Some(id) => program.asserts.get(id.index()).and_then(|a| a.span),
            None => match n {
                crate::verdicts::Notice::Analysis(note) => note.span,
                _ => None,
            },
        };
        let group = words::FunctionNote::of(n, program);
        let message = match n {
            crate::verdicts::Notice::Configuration(text) => unwrapped(text),
            _ => words::notice(n, program),
        };
        (ShownNote { span, message }, group)
    });
    group_notes(shown)
}

/// The notes, each once, with those of one [`words::FunctionNote`] kind that name two
/// functions or more made one note (see [`distinct_notes`]).
fn group_notes<'p>(
    notes: impl Iterator<Item = (ShownNote, Option<(words::FunctionNote, &'p str)>)>,
) -> Vec<ShownNote> {
    let mut distinct: Vec<(ShownNote, Option<(words::FunctionNote, &str)>)> = Vec::new();
    for n in notes {
        if !distinct.iter().any(|(d, _)| *d == n.0) {
            distinct.push(n);
        }
    }
    let mut names_of: Vec<(words::FunctionNote, Vec<&str>)> = Vec::new();
    for (_, group) in &distinct {
        if let Some((kind, name)) = group {
            match names_of.iter_mut().find(|(k, _)| k == kind) {
                Some((_, names)) => names.push(name),
                None => names_of.push((*kind, vec![name])),
            }
        }
    }
    let mut out = Vec::new();
    let mut done: Vec<words::FunctionNote> = Vec::new();
    for (n, group) in distinct {
        let Some((kind, _)) = group else {
            out.push(n);
            continue;
        };
        let Some((_, names)) = names_of.iter().find(|(k, _)| *k == kind) else {
            continue;
        };
        if names.len() < 2 {
            out.push(n);
            continue;
        }
        if done.contains(&kind) {
            continue;
        }
        done.push(kind);
        let mut shown: Vec<String> = (names.iter().take(NOTE_NAMES))
            .map(|f| format!("`{f}`"))
            .collect();
        if names.len() > NOTE_NAMES {
            shown.push(format!("and {} more", names.len() - NOTE_NAMES));
        }
        out.push(ShownNote {
            span: None,
            message: format!(
                "{} functions ({}): each {}",
                names.len(),
                shown.join(", "),
                kind.rest()
            ),
        });
    }
    out
}

/// `message` on one line: a backslash, a line break and the indentation after it (a string
/// continuation written `\\` in the source, which keeps the backslash and the break) become
/// one space, so that no note reaches the user hard-wrapped with a trailing ` \`.
fn unwrapped(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("\\\n") {
        out.push_str(rest[..at].trim_end());
        out.push(' ');
        rest = rest[at + 2..].trim_start();
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
