//! The GNU one-line format (`file:line:col: warning: message [code]`) that editors and CI
//! annotators parse: one line per unproved assertion, then the summary line.

use super::human::position;
use super::Report;
use crate::analysis::Status;
use std::io::{self, Write};

pub(super) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for f in report.findings() {
        let severity = match f.status {
            Status::MayFail => "warning",
            Status::Violated => "error",
            Status::Proved | Status::Unreachable => continue,
        };
        writeln!(
            out,
            "{}: {severity}: {} [{}]",
            position(&f.path, f.line, f.column),
            f.headline(),
            f.code()
        )?;
    }
    writeln!(out, "{}", report.summary().line())
}
