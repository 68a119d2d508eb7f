//! SARIF 2.1.0 (the subset code-scanning services read): one run, one result per unproved
//! assertion, with the rule, level, message and source region.

use super::Report;
use crate::analysis::Status;
use serde_json::{json, Value};
use std::io::{self, Write};

/// The rules a result can name; their ids are the diagnostic codes of the other formats.
const RULES: [(&str, &str); 2] = [
    (
        "assert-may-fail",
        "The analysis could not prove that the assertion holds.",
    ),
    ("assert-violated", "The assertion fails in some execution."),
];

pub(super) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let results: Vec<Value> = report
        .findings()
        .iter()
        .filter(|f| f.is_problem())
        .map(|f| {
            let mut region = json!({});
            if let Some(line) = f.line {
                region["startLine"] = json!(line);
                if let Some(col) = f.column {
                    region["startColumn"] = json!(col);
                }
            }
            let mut location = json!({"artifactLocation": {"uri": file_uri(&f.path)}});
            if f.line.is_some() {
                location["region"] = region;
            }
            let mut text = format!("{}.", f.headline());
            if let Some(values) = f.values_note() {
                text.push_str(&format!(" {}.", capitalized(&values)));
            }
            if !f.reason.is_empty() {
                text.push_str(&format!(" {}", capitalized(f.reason)));
            }
            json!({
                "ruleId": f.code(),
                "level": if f.status == Status::Violated { "error" } else { "warning" },
                "message": {"text": text},
                "locations": [{"physicalLocation": location}],
                "partialFingerprints": {"wattsAssertion/v1": format!("{}:{}", f.function, f.info.condition)},
                "properties": {"id": f.label_id(), "status": f.status.name()},
            })
        })
        .collect();
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, text)| json!({"id": id, "shortDescription": {"text": text}}))
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "watts",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A URI reference for `path`: `file:///...` when absolute, else relative; percent-encoded.
fn file_uri(path: &str) -> String {
    let mut uri = String::new();
    if path.starts_with('/') {
        uri.push_str("file://");
    }
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}
