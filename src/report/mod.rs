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
pub mod merge;
pub mod printable;
mod progress;
pub mod race;
mod sarif;
mod source;
mod suggest;
mod suppress;

pub use baseline::Baseline;
pub use finding::Finding;
pub use invariants::render as render_invariants;
pub use progress::Progress;
pub use source::{call_range, Region};
pub use suggest::render as render_suggestion;
pub use suppress::Suppression;

use crate::analysis::races::RaceStatus;
use crate::analysis::{Note, Outcome, Status};
use crate::config::{Config, Format};
use crate::ir::{FileId, Program, Span};
use std::io::{self, Write};

/// Everything one run produced: what was asked, what was analysed, what was concluded.
#[derive(Clone, Debug)]
pub struct Report {
    /// The configuration of the run.
    pub config: Config,
    /// The lowered program (assertion sites, source files, function names).
    pub program: Program,
    /// Verdicts, notes and counters.
    pub outcome: Outcome,
    /// Wall time of the front end (clang, loading, lowering), in milliseconds.
    pub frontend_ms: u64,
    /// Wall time of the analysis, in milliseconds.
    pub analysis_ms: u64,
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
    /// Bundles the results of one run.
    pub fn new(
        config: &Config,
        program: Program,
        outcome: Outcome,
        frontend_ms: u64,
        analysis_ms: u64,
    ) -> Report {
        let mut outcome = outcome;
        outcome.notes = group_notes(std::mem::take(&mut outcome.notes));
        let mut report = Report {
            config: config.clone(),
            suppressions: suppress::scan(&program),
            suppressed: vec![false; program.asserts.len()],
            baselined: None,
            race_suppressed: vec![false; outcome.races.as_ref().map_or(0, |r| r.races.len())],
            race_baselined: None,
            race_places: std::sync::OnceLock::new(),
            lines: std::sync::OnceLock::new(),
            program,
            outcome,
            frontend_ms,
            analysis_ms,
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
        let check = self.outcome.races.as_ref()?;
        if let Some(why) = &check.incomplete {
            return Some(format!("data races not checked: {why}"));
        }
        let n = check.races.len();
        let hidden = (0..n).filter(|&i| !self.race_is_new(i)).count();
        let confirmed = (check.races.iter())
            .filter(|r| r.status == crate::analysis::races::RaceStatus::Violated)
            .count();
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
                let path = r.first().map(|a| a.path.clone()).unwrap_or_default();
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
            let Some(check) = &self.outcome.races else {
                return "unknown";
            };
            return if (check.races.iter()).any(|r| r.status == RaceStatus::Violated) {
                "false"
            } else if check.incomplete.is_none() && check.races.is_empty() {
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
        let races = self.outcome.races.as_ref().is_some_and(|c| {
            c.incomplete.is_some() || (0..c.races.len()).any(|i| self.race_is_new(i))
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
    pub fn witness_file(
        &self,
        w: &crate::explore::witness::Witness,
    ) -> crate::explore::witness::WitnessFile {
        let c = &self.config;
        let cwd = std::env::current_dir().unwrap_or_default();
        // Absolute paths, so that `watts replay` works from any directory.
        let absolute = |p: &std::path::Path| {
            (std::fs::canonicalize(p).ok())
                .unwrap_or_else(|| crate::project::compile_commands::absolute(&cwd, p))
        };
        let input_args: Vec<Vec<String>> = (c.inputs.iter())
            .map(|p| c.units.get(p).map(|u| u.args.clone()).unwrap_or_default())
            .collect();
        let program_ref = crate::explore::witness::ProgramRef {
            inputs: (c.inputs.iter())
                .map(|p| absolute(p).display().to_string())
                .collect(),
            inputs_from_witness: Vec::new(),
            input_args: if input_args.iter().all(Vec::is_empty) {
                Vec::new()
            } else {
                input_args
            },
            clang_args: crate::explore::witness::witness_clang_args(&c.clang_args, &cwd),
            init: c.harness.as_ref().and_then(|h| h.init.clone()),
            entries: (c.harness.as_ref())
                .map(|h| h.entries.iter().map(|e| e.to_string()).collect())
                .unwrap_or_default(),
            entries_from: (c.harness.as_ref())
                .map(|h| h.tables.iter().map(|e| e.table_text()).collect())
                .unwrap_or_default(),
            entries_exported: c.harness.as_ref().is_some_and(|h| h.exported),
            assume_no_write: c.assume_no_write.clone(),
        };
        crate::explore::witness::WitnessFile::new(w, &self.program, program_ref, &|s| {
            self.span_path(Some(s))
        })
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

/// How many names a grouped note lists before "and N more".
const NOTE_NAMES: usize = 10;

/// The notes, each once, with the notes that differ only in the function they name
/// (`` `f` has no definition ...``, `` `g` is not inlined ...``) made one note per kind with
/// a count and a bounded list of names, in first-seen order: a driver with forty undefined
/// kernel functions gets one note, not forty.
pub(crate) fn group_notes(notes: Vec<Note>) -> Vec<Note> {
    /// The function a note names first, and the rest of its message.
    fn named(message: &str) -> Option<(&str, &str)> {
        let rest = message.strip_prefix('`')?;
        let end = rest.find('`')?;
        Some((&rest[..end], rest[end + 1..].strip_prefix(' ')?))
    }
    let mut distinct: Vec<Note> = Vec::new();
    for mut n in notes {
        n.message = unwrapped(&n.message);
        if !distinct.contains(&n) {
            distinct.push(n);
        }
    }
    let mut names_of: Vec<(String, Vec<String>)> = Vec::new();
    for n in &distinct {
        if let Some((name, rest)) = named(&n.message) {
            match names_of.iter_mut().find(|(r, _)| r == rest) {
                Some((_, names)) => names.push(name.to_string()),
                None => names_of.push((rest.to_string(), vec![name.to_string()])),
            }
        }
    }
    let mut out = Vec::new();
    let mut done: Vec<&str> = Vec::new();
    for n in &distinct {
        let Some((_, rest)) = named(&n.message) else {
            out.push(n.clone());
            continue;
        };
        let Some((_, names)) = names_of.iter().find(|(r, _)| r == rest) else {
            continue;
        };
        if names.len() < 2 {
            out.push(n.clone());
            continue;
        }
        if done.contains(&rest) {
            continue;
        }
        done.push(rest);
        let mut shown: Vec<String> = (names.iter().take(NOTE_NAMES))
            .map(|f| format!("`{f}`"))
            .collect();
        if names.len() > NOTE_NAMES {
            shown.push(format!("and {} more", names.len() - NOTE_NAMES));
        }
        out.push(Note {
            span: None,
            message: format!(
                "{} functions ({}): each {rest}",
                names.len(),
                shown.join(", ")
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

/// The modelling notes, each once, in first-seen order.
pub(crate) fn distinct_notes(report: &Report) -> impl Iterator<Item = &Note> {
    let notes = &report.outcome.notes;
    notes
        .iter()
        .enumerate()
        .filter(|&(i, n)| !notes[..i].contains(n))
        .map(|(_, n)| n)
}

#[cfg(test)]
mod tests;
