//! SARIF 2.1.0 for code-scanning services: one run; `tool.driver` with every rule watts can
//! report (stable ids: the diagnostic codes of the other formats); one result per unproved
//! assertion (suppressed ones with `suppressions`, baseline ones with `baselineState`), one per
//! unused suppression, one per data race (its accesses as `relatedLocations`), and with
//! `--verbose` proved and unreachable assertions as `note`
//! results; the stores of an explanation as `relatedLocations`; modelling notes as tool
//! execution notifications.
//!
//! Invariant: the output conforms to the SARIF 2.1.0 schema (`tests/sarif.rs` checks it).

use super::baseline::FINGERPRINT;
use super::finding::Finding;
use super::race::{self, RaceFinding};
use super::suppress::UNUSED_CODE;
use super::{distinct_notes, Report};
use crate::ir::Span;
use crate::limits::REPORT_ACCESSES_LISTED;
use crate::verdicts::RaceStatus;
use crate::verdicts::Status;
use serde_json::{json, Map, Value};
use std::io::{self, Write};

/// The base id relative artifact URIs are resolved against.
const SRCROOT: &str = "SRCROOT";

/// Every rule a result can name: (id, name, level, short description, full description).
const RULES: [(&str, &str, &str, &str, &str); 6] = [
    (
        "assert-may-fail",
        "AssertMayFail",
        "warning",
        "The analysis could not prove that the assertion holds.",
        "Some abstract state of some thread reaches the assertion with a condition that may be \
         false. Either the assertion can really fail (look at the values and the stores it may \
         read), or the analysis is too imprecise to prove it (try --mode constraints or \
         --domain octagon).",
    ),
    (
        "assert-violated",
        "AssertViolated",
        "error",
        "The assertion fails in some execution.",
        "A concrete execution of the program fails the assertion.",
    ),
    (
        "assert-proved",
        "AssertProved",
        "note",
        "The assertion holds in every execution.",
        "No execution reaches the assertion with a false condition, under the semantics in \
         watts' README (sequential consistency, C as clang lowers it at -O0).",
    ),
    (
        "assert-unreachable",
        "AssertUnreachable",
        "note",
        "No execution reaches the assertion.",
        "No analysed execution reaches the assertion; it holds vacuously.",
    ),
    (
        race::CODE,
        "DataRace",
        "warning",
        "Two threads may access this memory at once, at least one writing.",
        "Two accesses to the same memory from different threads, at least one a write and at \
         least one not atomic, are not ordered by thread creation, joins or a published flag, \
         and hold no common lock. The related locations are the accesses; a confirmed race \
         (--confirm) carries the execution that reaches both at once.",
    ),
    (
        UNUSED_CODE,
        "UnusedSuppression",
        "warning",
        "A watts-ignore comment suppresses nothing.",
        "No unproved assertion with one of the codes the comment names is on its line or on \
         the next line; remove the comment, or fix its codes.",
    ),
];

pub(super) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &document(report))?;
    writeln!(out)
}

/// The SARIF log of `report`.
pub(super) fn document(report: &Report) -> Value {
    let cwd = std::env::current_dir().unwrap_or_default();
    let with_baseline = report.baselined.is_some();
    let verbose = report.config.verbose;
    let mut results: Vec<Value> = Vec::new();
    for f in report.findings() {
        if !(f.is_problem() || verbose) {
            continue;
        }
        results.push(result(report, &f, &cwd, with_baseline));
    }
    for r in report.races() {
        results.push(race_result(report, &r, &cwd, with_baseline));
    }
    for s in report.unused_suppressions() {
        let span = Span {
            file: s.file,
            line: s.line,
            col: s.column,
        };
        let mut r = json!({
            "ruleId": UNUSED_CODE,
            "ruleIndex": rule_index(UNUSED_CODE),
            "level": "warning",
            "message": {"text": format!("`{}` suppresses nothing.", s.text)},
            "locations": [{"physicalLocation": physical(report, Some(span), &cwd)}],
            "partialFingerprints": {FINGERPRINT: format!("suppression:{}", s.text)},
        });
        if with_baseline {
            r["baselineState"] = json!("new");
        }
        results.push(r);
    }
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, name, level, short, full)| {
            json!({
                "id": id,
                "name": name,
                "shortDescription": {"text": short},
                "fullDescription": {"text": full},
                "defaultConfiguration": {"level": level},
                "help": {"text": format!("{full} Suppress a reviewed finding with \
                    `// watts-ignore({id})` on its line or the line before.")},
            })
        })
        .collect();
    let notifications: Vec<Value> = distinct_notes(report)
        .into_iter()
        .map(|n| {
            let mut v = json!({"level": "note", "message": {"text": n.message}});
            if n.span.is_some() {
                v["locations"] = json!([{"physicalLocation": physical(report, n.span, &cwd)}]);
            }
            v
        })
        .collect();
    let (major, minor, patch) = report.llvm_version;
    let version = env!("CARGO_PKG_VERSION");
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "watts",
                "fullName": format!("watts {version} (LLVM {major}.{minor}.{patch})"),
                "version": version,
                "semanticVersion": version,
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
            }],
            "originalUriBaseIds": {SRCROOT: {"uri": dir_uri(&cwd)}},
            // Columns count characters, as in every other format (`report::Region`).
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {
                "mode": report.config.mode.name(),
                "domain": report.config.domain.name(),
            },
        }],
    })
}

fn result(report: &Report, f: &Finding, cwd: &std::path::Path, with_baseline: bool) -> Value {
    let level = match f.status {
        Status::Violated => "error",
        Status::MayFail => "warning",
        Status::Proved | Status::Unreachable => "note",
    };
    let mut text = format!("{}.", capitalized(&f.headline()));
    if let Some(values) = f.values_note() {
        text.push_str(&format!(" {}.", capitalized(&values)));
    }
    if !f.reason.is_empty() {
        text.push_str(&format!(
            " {}.",
            capitalized(&f.reason).trim_end_matches('.')
        ));
    }
    let notes = f.explanation_notes(|s| report.span_path(Some(s)));
    for n in &notes {
        text.push_str(&format!(" {n}."));
    }
    if f.status == Status::Proved && f.pruned > 0 {
        text.push_str(&format!(
            " {} pruned as infeasible.",
            super::plural(f.pruned, "interference combination")
        ));
    }
    let mut r = json!({
        "ruleId": f.code(),
        "ruleIndex": rule_index(f.code()),
        "level": level,
        "message": {"text": text},
        "locations": [{"physicalLocation": physical(report, f.info.span, cwd)}],
        "partialFingerprints": {FINGERPRINT: f.fingerprint},
        "properties": {"id": f.label_id(), "status": f.status.name(), "function": f.function,
                       "threads": f.threads},
    });
    let related: Vec<Value> = (f.explanation.iter().enumerate())
        .filter_map(|(i, flow)| {
            let at = flow.store.or(flow.load)?;
            Some(json!({
                "id": i + 1,
                "physicalLocation": physical(report, Some(at), cwd),
                "message": {"text": notes[i].clone()},
            }))
        })
        .collect();
    if !related.is_empty() {
        r["relatedLocations"] = json!(related);
    }
    if let Some(w) = f.witness {
        r["codeFlows"] = json!([code_flow(report, w, cwd)]);
    }
    if f.suppressed {
        let mut s = Map::new();
        s.insert("kind".into(), json!("inSource"));
        s.insert("status".into(), json!("accepted"));
        if let Some(sup) = report.suppressions.iter().find(|s| {
            f.info
                .span
                .zip(f.line)
                .is_some_and(|(span, line)| s.covers(span.file, line, f.code()))
        }) {
            s.insert("justification".into(), json!(sup.text));
        }
        r["suppressions"] = json!([Value::Object(s)]);
    }
    if with_baseline && f.is_problem() {
        r["baselineState"] = json!(if f.baselined { "unchanged" } else { "new" });
    }
    r
}

fn race_result(
    report: &Report,
    r: &RaceFinding,
    cwd: &std::path::Path,
    with_baseline: bool,
) -> Value {
    let level = match r.status {
        RaceStatus::Violated => "error",
        RaceStatus::MayRace => "warning",
    };
    let text = format!(
        "{}. {}.",
        capitalized(&r.headline()),
        capitalized(&r.race.reason).trim_end_matches('.')
    );
    let first = r.first().and_then(|a| a.access.span);
    let mut out = json!({
        "ruleId": race::CODE,
        "ruleIndex": rule_index(race::CODE),
        "level": level,
        "message": {"text": text},
        "locations": [{"physicalLocation": physical(report, first, cwd)}],
        "partialFingerprints": {FINGERPRINT: r.fingerprint},
        "properties": {"id": r.label_id(), "status": r.status.name(),
                       "memory": r.race.memory.name},
    });
    let related: Vec<Value> = (r.accesses.iter().enumerate())
        .take(REPORT_ACCESSES_LISTED)
        .map(|(i, a)| {
            json!({
                "id": i + 1,
                "physicalLocation": physical(report, a.access.span, cwd),
                "message": {"text": format!("({}) {}", i + 1, a.describe())},
            })
        })
        .collect();
    if !related.is_empty() {
        out["relatedLocations"] = json!(related);
    }
    let more = r.accesses.len().saturating_sub(REPORT_ACCESSES_LISTED);
    if more > 0 {
        // The JSON report lists every access (`access_ids`).
        out["properties"]["more_accesses"] = json!(more);
    }
    if let Some(w) = r.witness {
        out["codeFlows"] = json!([code_flow(report, w, cwd)]);
    }
    if r.suppressed {
        out["suppressions"] = json!([{"kind": "inSource", "status": "accepted"}]);
    }
    if with_baseline {
        out["baselineState"] = json!(if r.baselined { "unchanged" } else { "new" });
    }
    out
}

/// The witness of a violated assertion as a SARIF code flow: one thread flow per thread, whose
/// locations carry the global order of the steps (`executionOrder`).
fn code_flow(report: &Report, w: &crate::witness::Witness, cwd: &std::path::Path) -> Value {
    let mut per_thread: std::collections::BTreeMap<usize, Vec<Value>> = Default::default();
    for (order, (step, line)) in super::witness::lines(w).into_iter().enumerate() {
        per_thread.entry(step.tid).or_default().push(json!({
            "location": {
                "physicalLocation": physical(report, step.span, cwd),
                "message": {"text": line},
            },
            "executionOrder": order + 1,
            "nestingLevel": 0,
        }));
    }
    let flows: Vec<Value> = per_thread
        .into_iter()
        .map(|(t, locations)| {
            json!({
                "id": w.thread(t),
                "message": {"text": format!("thread {}", w.thread(t))},
                "locations": locations,
            })
        })
        .collect();
    json!({
        "message": {"text": "an execution that fails the assertion (watts confirm)"},
        "threadFlows": flows,
    })
}

fn rule_index(id: &str) -> usize {
    RULES.iter().position(|r| r.0 == id).unwrap_or(0)
}

/// A physical location: the artifact (relative to SRCROOT when inside the current directory)
/// and, when the line is known, the region.
fn physical(report: &Report, span: Option<Span>, cwd: &std::path::Path) -> Value {
    let path = report.span_path(span);
    let abs = crate::paths::absolute(cwd, std::path::Path::new(&path));
    let mut artifact = match abs.strip_prefix(cwd) {
        Ok(rel) => json!({"uri": encode(&rel.to_string_lossy()), "uriBaseId": SRCROOT}),
        Err(_) => json!({"uri": format!("file://{}", encode(&abs.to_string_lossy()))}),
    };
    if path.is_empty() {
        artifact = json!({"uri": "unknown"});
    }
    let mut loc = json!({"artifactLocation": artifact});
    if let Some(r) = report.region(span) {
        let mut region = json!({"startLine": r.line});
        if let Some(c) = r.column() {
            region["startColumn"] = json!(c);
        }
        if let Some((line, column)) = r.end().filter(|_| r.column().is_some()) {
            region["endLine"] = json!(line);
            region["endColumn"] = json!(column);
        }
        loc["region"] = region;
    }
    loc
}

fn dir_uri(dir: &std::path::Path) -> String {
    let mut s = format!("file://{}", encode(&dir.to_string_lossy()));
    if !s.ends_with('/') {
        s.push('/');
    }
    s
}

fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Percent-encodes a path for a URI (keeping `/`).
fn encode(path: &str) -> String {
    let mut uri = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}
