//! Compiler-style diagnostics for people, with source snippets (codespan-reporting).
//!
//! Order: one diagnostic per unproved assertion (with `--verbose`, per assertion), in id
//! order; then each distinct modelling note once; then the summary line.

use super::finding::Finding;
use super::printable::{escape, position, Printable};
use super::race::{self, AccessAt, RaceFinding};
use super::source::call_range_indexed;
use super::{distinct_notes, plural, Report, ShownNote};
use crate::ir::Span;
use crate::verdicts::RaceStatus;
use crate::verdicts::Status;
use codespan_reporting::diagnostic::{Diagnostic, Label, Severity};
use codespan_reporting::files::{self, SimpleFiles};
use codespan_reporting::term::termcolor::{Ansi, Color, ColorSpec, NoColor, WriteColor};
use codespan_reporting::term::{self, Config as TermConfig};
use std::io::{self, Write};

use crate::limits::MAX_STEP_LABELS;

pub(super) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    // Whatever the files say reaches the terminal escaped (`printable`).
    if report.config.color {
        emit_all(report, &mut Printable(Ansi::new(out)))
    } else {
        emit_all(report, &mut Printable(NoColor::new(out)))
    }
}

/// The source files with text, registered with codespan; indexed by `FileId`.
struct Sources<'a> {
    /// Files by escaped name (a name may hold a line feed), with their text (whose controls
    /// the front end hid, keeping every byte offset).
    files: SimpleFiles<String, &'a str>,
    ids: Vec<Option<usize>>,
    /// The report, for where the lines of each file start.
    report: &'a Report,
}

impl<'a> Sources<'a> {
    fn new(report: &'a Report) -> Self {
        let mut files = SimpleFiles::new();
        let ids = report
            .program
            .files
            .iter()
            .map(|f| {
                f.text
                    .as_deref()
                    .map(|text| files.add(escape(&f.path).into_owned(), text))
            })
            .collect();
        Sources { files, ids, report }
    }

    /// A short range at `span`: from its column to the end of the statement (`;`), at most to
    /// the end of the line, or `len` bytes when given (for stores and comments, where the
    /// whole call or line would say less).
    fn locate_short(
        &self,
        span: Option<Span>,
        len: Option<usize>,
    ) -> Option<(usize, std::ops::Range<usize>)> {
        let span = span?;
        let id = (*self.ids.get(span.file.0 as usize)?)?;
        let (text, lines) = self.report.source_lines(span.file)?;
        let line_start = if span.line <= 1 {
            0
        } else {
            lines.start(span.line)?
        };
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |n| line_start + n);
        let mut start = (line_start + (span.col.max(1) as usize - 1)).min(line_end);
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = match len {
            Some(n) => (start + n).min(line_end),
            None => text[start..line_end]
                .find(';')
                .map_or(line_end, |i| start + i + 1),
        };
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        if end <= start {
            return self.locate(Some(span));
        }
        Some((id, start..end))
    }

    /// The codespan file and byte range to label for `span`, when the text is there.
    fn locate(&self, span: Option<Span>) -> Option<(usize, std::ops::Range<usize>)> {
        let span = span?;
        let id = (*self.ids.get(span.file.0 as usize)?)?;
        let (text, lines) = self.report.source_lines(span.file)?;
        Some((id, call_range_indexed(text, lines, span.line, span.col)?))
    }
}

fn emit_all(report: &Report, w: &mut dyn WriteColor) -> io::Result<()> {
    let sources = Sources::new(report);
    let verbose = report.config.verbose;
    for f in report.findings() {
        if f.is_new_problem() || verbose {
            emit_finding(report, &sources, &f, w)?;
        }
    }
    for r in report.races() {
        if r.is_new() || verbose {
            emit_race(&sources, &r, w)?;
        }
    }
    for s in report.unused_suppressions() {
        emit_unused(report, &sources, s, w)?;
    }
    if report.config.quiet {
        return Ok(());
    }
    for note in distinct_notes(report) {
        emit_note(report, &sources, &note, w)?;
    }
    writeln!(w, "{}", report.closing_line())?;
    if verbose {
        writeln!(
            w,
            "analysed {} in {} ms (front end {} ms)",
            plural(report.verdicts.stats.threads, "thread"),
            report.analysis_ms,
            report.frontend_ms
        )?;
    }
    Ok(())
}

fn emit_finding(
    report: &Report,
    sources: &Sources,
    f: &Finding,
    w: &mut dyn WriteColor,
) -> io::Result<()> {
    let (severity, message) = match f.status {
        Status::MayFail => (Severity::Warning, "assertion may fail"),
        Status::Violated => (Severity::Error, "assertion is violated"),
        Status::Proved => (Severity::Note, "assertion proved"),
        Status::Unreachable => (Severity::Note, "assertion unreachable"),
    };
    let mut notes: Vec<String> = f
        .values_note()
        .into_iter()
        .chain((!f.reason.is_empty()).then(|| f.reason.to_string()))
        .collect();
    notes.extend(f.explanation_notes(|s| report.span_path(Some(s))));
    if let Some(w) = f.witness {
        let lines = super::witness::lines(w);
        notes.push(format!(
            "the failing execution, step by step ({}; thread starts not shown):",
            plural(lines.len(), "step")
        ));
        for (step, line) in lines {
            let at = step
                .span
                .map(|s| format!(" at {}:{}", report.span_path(Some(s)), s.line))
                .unwrap_or_default();
            notes.push(format!("  {line}{at}"));
        }
    }
    if f.status == Status::Proved && f.pruned > 0 {
        notes.push(format!(
            "{} pruned as infeasible",
            plural(f.pruned, "interference combination")
        ));
    }
    if f.suppressed {
        notes.push("suppressed by a `watts-ignore` comment (not proved)".to_string());
    } else if f.baselined {
        notes.push("already in the baseline (not proved)".to_string());
    }
    if let Some((file, range)) = sources.locate(f.info.span) {
        let mut labels = vec![Label::primary(file, range).with_message(f.label())];
        for (i, flow) in f.explanation.iter().enumerate() {
            if let Some((sf, sr)) = sources.locate_short(flow.store, None) {
                labels
                    .push(Label::secondary(sf, sr).with_message(format!("({}) store read", i + 1)));
            }
        }
        // The witness's visible steps, numbered as in the notes (the last few, which lead to
        // the failure, when there are many).
        if let Some(w) = f.witness {
            let lines = super::witness::lines(w);
            let skip = lines.len().saturating_sub(MAX_STEP_LABELS);
            for (step, line) in lines.into_iter().skip(skip) {
                if let Some((sf, sr)) = sources.locate_short(step.span, None) {
                    labels.push(Label::secondary(sf, sr).with_message(line));
                }
            }
        }
        let diagnostic = Diagnostic::new(severity)
            .with_code(f.code())
            .with_message(message)
            .with_labels(labels)
            // codespan prints notes as `= text`; rustc's `= note: text` reads better.
            .with_notes(notes.iter().map(|n| format!("note: {n}")).collect());
        if emit(sources, &diagnostic, w)? {
            return Ok(());
        }
    }
    // No source text (or a span codespan cannot place): a GNU-style line carries the position.
    let location = position(&f.path, f.line, f.column);
    write_plain(
        w,
        Some(&location),
        severity,
        Some(f.code()),
        &f.headline(),
        &notes,
    )
}

use crate::limits::{MAX_ACCESS_LABELS, MAX_ACCESS_NOTES, MAX_PAIR_NOTES};

fn emit_race(sources: &Sources, r: &RaceFinding, w: &mut dyn WriteColor) -> io::Result<()> {
    let severity = match r.status {
        RaceStatus::MayRace => Severity::Warning,
        RaceStatus::Violated => Severity::Error,
    };
    let mut notes = vec![r.race.reason.clone()];
    let numbered: Vec<String> = (r.accesses.iter().enumerate())
        .map(|(i, a)| format!("({}) {}", i + 1, a.describe()))
        .collect();
    let listed = r.accesses.len().min(MAX_ACCESS_NOTES);
    for (i, a) in r
        .accesses
        .iter()
        .enumerate()
        .take(listed)
        .skip(MAX_ACCESS_LABELS)
    {
        notes.push(format!("({}) {} at {}", i + 1, a.describe(), a.position()));
    }
    let hidden = r.accesses.len() - listed;
    if hidden > 0 {
        notes.push(format!("and {} more", plural(hidden, "access")));
    }
    let pairs: Vec<String> = (r.race.pairs.iter())
        .filter(|(i, j)| *i < listed && *j < listed)
        .take(MAX_PAIR_NOTES)
        .map(|(i, j)| format!("({})-({})", i + 1, j + 1))
        .collect();
    if pairs.len() > 1 || r.race.pairs.iter().any(|(i, j)| i == j) {
        notes.push(format!("the accesses that may race: {}", pairs.join(", ")));
    }
    if let Some(wit) = r.witness {
        let lines = super::witness::lines(wit);
        notes.push(format!(
            "an execution that reaches both accesses at once, step by step ({}):",
            plural(lines.len(), "step")
        ));
        for (_, line) in lines {
            notes.push(format!("  {line}"));
        }
    }
    if r.suppressed {
        notes.push("suppressed by a `watts-ignore(data-race)` comment".to_string());
    } else if r.baselined {
        notes.push("already in the baseline".to_string());
    }
    let mut labels = Vec::new();
    for (i, a) in r.accesses.iter().enumerate().take(MAX_ACCESS_LABELS) {
        if let Some((file, range)) = sources.locate_short(a.access.span, None) {
            let label = if i == 0 {
                Label::primary(file, range)
            } else {
                Label::secondary(file, range)
            };
            labels.push(label.with_message(numbered[i].clone()));
        }
    }
    if !labels.is_empty() {
        let diagnostic = Diagnostic::new(severity)
            .with_code(race::CODE)
            .with_message(r.headline())
            .with_labels(labels)
            .with_notes(notes.iter().map(|n| format!("note: {n}")).collect());
        if emit(sources, &diagnostic, w)? {
            return Ok(());
        }
    }
    let location = r.first().map(AccessAt::position);
    let mut all = notes;
    for (i, a) in r.accesses.iter().enumerate().take(MAX_ACCESS_LABELS) {
        all.insert(i, format!("{} at {}", numbered[i], a.position()));
    }
    write_plain(
        w,
        location.as_deref(),
        severity,
        Some(race::CODE),
        &r.headline(),
        &all,
    )
}

fn emit_unused(
    report: &Report,
    sources: &Sources,
    s: &super::Suppression,
    w: &mut dyn WriteColor,
) -> io::Result<()> {
    let span = Some(Span {
        file: s.file,
        line: s.line,
        col: s.column,
    });
    let message = format!("`{}` suppresses nothing", s.text);
    let notes =
        vec!["no unproved assertion with that code is on this line or the next".to_string()];
    if let Some((file, range)) = sources.locate_short(span, Some(s.text.len())) {
        let diagnostic = Diagnostic::warning()
            .with_code(super::suppress::UNUSED_CODE)
            .with_message(&message)
            .with_labels(vec![Label::primary(file, range)])
            .with_notes(notes.iter().map(|n| format!("note: {n}")).collect());
        if emit(sources, &diagnostic, w)? {
            return Ok(());
        }
    }
    let location = position(&report.span_path(span), Some(s.line), Some(s.column));
    write_plain(
        w,
        Some(&location),
        Severity::Warning,
        Some(super::suppress::UNUSED_CODE),
        &message,
        &notes,
    )
}

fn emit_note(
    report: &Report,
    sources: &Sources,
    note: &ShownNote,
    w: &mut dyn WriteColor,
) -> io::Result<()> {
    if let Some((file, range)) = sources.locate(note.span) {
        let diagnostic = Diagnostic::note()
            .with_message(&note.message)
            .with_labels(vec![Label::primary(file, range)]);
        if emit(sources, &diagnostic, w)? {
            return Ok(());
        }
    }
    let location = note.span.map(|s| {
        let line = Some(s.line).filter(|&l| l > 0);
        position(
            &report.span_path(Some(s)),
            line,
            Some(s.col).filter(|&c| c > 0),
        )
    });
    write_plain(
        w,
        location.as_deref(),
        Severity::Note,
        None,
        &note.message,
        &[],
    )
}

/// Emits with codespan; `Ok(false)` when codespan rejects the position (the caller falls back).
fn emit(sources: &Sources, d: &Diagnostic<usize>, w: &mut dyn WriteColor) -> io::Result<bool> {
    match term::emit_to_write_style(w, &TermConfig::default(), &sources.files, d) {
        Ok(()) => Ok(true),
        Err(files::Error::Io(e)) => Err(e),
        Err(_) => Ok(false),
    }
}

/// `location: severity[code]: message` plus `= note:` lines, colored like codespan's headers.
fn write_plain(
    w: &mut dyn WriteColor,
    location: Option<&str>,
    severity: Severity,
    code: Option<&str>,
    message: &str,
    notes: &[String],
) -> io::Result<()> {
    let (word, color) = match severity {
        Severity::Bug | Severity::Error => ("error", Color::Red),
        Severity::Warning => ("warning", Color::Yellow),
        Severity::Note => ("note", Color::Green),
        Severity::Help => ("help", Color::Cyan),
    };
    if let Some(location) = location {
        write!(w, "{location}: ")?;
    }
    w.set_color(ColorSpec::new().set_fg(Some(color)).set_bold(true))?;
    match code {
        Some(code) => write!(w, "{word}[{code}]")?,
        None => write!(w, "{word}")?,
    }
    w.reset()?;
    writeln!(w, ": {message}")?;
    for note in notes {
        writeln!(w, "  = note: {note}")?;
    }
    if location.is_some() || !notes.is_empty() {
        writeln!(w)?;
    }
    Ok(())
}
