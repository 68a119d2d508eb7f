//! The GNU one-line format (`file:line:col: warning: message [code]`) that editors and CI
//! annotators parse: one line per unproved assertion that is neither suppressed nor in the
//! baseline (with `--verbose`, those too, and proved ones as notes), one per data race (at its
//! first access, with the other access of its first pair in the message), one per unused
//! suppression, then the summary line (not with `--quiet`).

use super::printable::escape;
use super::printable::position;
use super::race;
use super::suppress::UNUSED_CODE;
use super::Report;
use crate::verdicts::RaceStatus;
use crate::verdicts::Status;
use std::io::{self, Write};

/// Writes `text` as one line: a line feed or any other control character a file name, a name
/// of the program or a source text holds is escaped, so a reader of the format never sees a
/// line the report did not write.
fn line(out: &mut dyn Write, text: &str) -> io::Result<()> {
    writeln!(out, "{}", escape(text))
}

pub(super) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let verbose = report.config.verbose;
    for f in report.findings() {
        let severity = match f.status {
            Status::MayFail => "warning",
            Status::Violated => "error",
            Status::Proved | Status::Unreachable if verbose => "note",
            Status::Proved | Status::Unreachable => continue,
        };
        if f.is_problem() && !f.is_new_problem() && !verbose {
            continue;
        }
        let why = match (f.suppressed, f.baselined) {
            (true, _) => " (suppressed)",
            (false, true) => " (in the baseline)",
            _ => "",
        };
        line(
            out,
            &format!(
                "{}: {severity}: {}{why} [{}]",
                position(&f.path, f.line, f.column),
                f.headline(),
                f.code()
            ),
        )?;
    }
    for r in report.races() {
        if !r.is_new() && !verbose {
            continue;
        }
        let severity = match r.status {
            RaceStatus::MayRace => "warning",
            RaceStatus::Violated => "error",
        };
        let why = match (r.suppressed, r.baselined) {
            (true, _) => " (suppressed)",
            (false, true) => " (in the baseline)",
            _ => "",
        };
        let Some(first) = r.first() else { continue };
        // The second access of the first pair, else the first one again (an access that two
        // instances run at once).
        let other = (r.race.pairs.first())
            .and_then(|&(i, j)| r.accesses.get(if i == 0 { j } else { i }))
            .unwrap_or(first);
        let with = if std::ptr::eq(other, first) {
            format!("{} by two instances at once", first.describe())
        } else {
            format!(
                "{}, and {} at {}",
                first.describe(),
                other.describe(),
                other.position()
            )
        };
        line(
            out,
            &format!(
                "{}: {severity}: {}: {with}{why} [{}]",
                first.position(),
                r.headline(),
                race::CODE
            ),
        )?;
    }
    for s in report.unused_suppressions() {
        let span = Some(crate::ir::Span {
            file: s.file,
            line: s.line,
            col: s.column,
        });
        let path = report.span_path(span);
        let column = report.region(span).and_then(|r| r.column());
        line(
            out,
            &format!(
                "{}: warning: `{}` suppresses nothing [{UNUSED_CODE}]",
                position(&path, Some(s.line), column.or(Some(s.column))),
                s.text
            ),
        )?;
    }
    if !report.config.quiet {
        line(out, &report.closing_line())?;
    }
    Ok(())
}
