//! `watts invariants` output: per thread, one line per reached source line with the ranges of
//! its named variables (human), or one JSON object.

use super::finding::{format_value, value_text};
use crate::analysis::invariants::Invariants;
use crate::analysis::NamedRange;
use crate::config::Format;
use serde_json::json;
use std::io::{self, Write};
use watts_domains::{IntTy, Interval, Lattice};

/// Writes `inv` in `format` (`Human` or `Json`; other formats write JSON).
pub fn render(inv: &Invariants, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        // File and variable names reach the terminal escaped (`printable`).
        Format::Human => human(inv, &mut super::printable::Printable(out)),
        _ => {
            serde_json::to_writer_pretty(&mut *out, &document(inv))?;
            writeln!(out)
        }
    }
}

fn human(inv: &Invariants, out: &mut dyn Write) -> io::Result<()> {
    if inv.gave_up {
        writeln!(
            out,
            "warning: the analysis stopped before its fixpoint; these ranges may be too small"
        )?;
    }
    for note in &inv.notes {
        writeln!(out, "note: {note}")?;
    }
    let protection = if inv.lock_protection {
        ", with lock protection"
    } else {
        ""
    };
    writeln!(
        out,
        "invariants of the {} mode, {} domain{protection}",
        inv.mode, inv.domain
    )?;
    for t in &inv.threads {
        writeln!(out)?;
        let many = if t.multi { ", many instances" } else { "" };
        writeln!(out, "thread {} (entry {}{many}):", t.name, t.entry)?;
        if t.lines.is_empty() {
            writeln!(out, "  (no source line reached)")?;
        }
        let width = t
            .lines
            .iter()
            .map(|l| format!("{}:{}", l.file, l.line).len())
            .max()
            .unwrap_or(0);
        for l in &t.lines {
            let at = format!("{}:{}", l.file, l.line);
            let values: Vec<String> = l.values.iter().map(format_value).collect();
            let text = if values.is_empty() {
                "reached".to_string()
            } else {
                values.join(", ")
            };
            writeln!(out, "  {at:width$}  {text}")?;
        }
    }
    Ok(())
}

fn document(inv: &Invariants) -> serde_json::Value {
    json!({
        "version": 1,
        "tool": {"name": "watts", "version": env!("CARGO_PKG_VERSION")},
        "config": {"mode": inv.mode, "domain": inv.domain, "lock_protection": inv.lock_protection},
        "inputs": inv.inputs,
        "complete": !inv.gave_up,
        "notes": inv.notes,
        "threads": threads(inv),
    })
}

/// The `invariants` of the JSON report (`--html`): the document above without what the
/// report already says (`version`, `tool`, `inputs`), and without the variables that may have
/// any value of their type (`unconstrained_omitted`): on a real program they are nineteen in
/// twenty of all entries, and a line that lists none is still reached.
pub(super) fn section(inv: &Invariants) -> serde_json::Value {
    json!({
        "config": {"mode": inv.mode, "domain": inv.domain, "lock_protection": inv.lock_protection},
        "complete": !inv.gave_up,
        "notes": inv.notes,
        "unconstrained_omitted": true,
        "threads": threads_where(inv, constrained),
    })
}

/// Whether `v` excludes some value of its type (of any integer, without a C type).
fn constrained(v: &NamedRange) -> bool {
    let all = match v.ty {
        Some(ty) => Interval::top_of(IntTy::new(ty.bits)),
        None => Interval::top(),
    };
    !all.leq(&v.range)
}

fn threads(inv: &Invariants) -> serde_json::Value {
    threads_where(inv, |_| true)
}

fn threads_where(inv: &Invariants, shown: fn(&NamedRange) -> bool) -> serde_json::Value {
    json!(inv
        .threads
        .iter()
        .map(|t| json!({
            "name": t.name,
            "entry": t.entry,
            "multi": t.multi,
            "lines": t.lines.iter().map(|l| json!({
                "file": l.file,
                "line": l.line,
                "functions": l.functions,
                "values": l.values.iter().filter(|v| shown(v))
                    .map(|v| (v.name.clone(), json!(value_text(v))))
                    .collect::<serde_json::Map<_, _>>(),
            })).collect::<Vec<_>>(),
        }))
        .collect::<Vec<_>>())
}
