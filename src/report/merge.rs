//! Reports of a whole tree (`watts analyze --per-program`, `watts merge`): one result per
//! program of the tree, each the JSON document and the SARIF run of that program's own report
//! (labelled with its name), rendered together in every format, and read back from the JSON or
//! SARIF output of shards.
//!
//! Invariant: a tree report is a function of its programs' results, sorted by name, and of the
//! tree's notes: rendering the programs of the shards of a tree gives the bytes that rendering
//! the whole tree gives. Files read back are untrusted input: anything that is not the shape
//! written here is an error (exit 2), never a panic and never a verdict of its own.

use super::printable::escape;
use super::Report;
use crate::config::Format;
use serde_json::{json, Map, Value};
use std::io::{self, Write};
use std::path::Path;

/// The rule of a program that could not be analysed (clang rejected a unit, the analysis
/// crashed or ran out of memory): a finding, so that it is seen, not a failed run.
pub const NOT_ANALYSED: &str = "not-analysed";

use crate::limits::MAX_MERGE_INPUT_BYTES as MAX_INPUT_BYTES;

/// One program of a tree and what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramResult {
    /// Its name (unique in the tree).
    pub name: String,
    /// Its translation units, as the report shows paths.
    pub files: Vec<String>,
    /// Its report, or why there is none.
    pub outcome: ProgramOutcome,
}

/// What one program's run gave.
#[derive(Clone, Debug, PartialEq)]
pub enum ProgramOutcome {
    /// The program was analysed: its exit status, its JSON v1 document (absent when read back
    /// from SARIF), and its SARIF run.
    Analysed {
        /// 0 or 1, as `watts analyze` on the program alone.
        exit: u8,
        /// The JSON v1 document of the program alone, labelled.
        report: Option<Value>,
        /// The SARIF run of the program alone, labelled.
        sarif: Value,
    },
    /// The program could not be analysed: one `not-analysed` finding with this message
    /// (`not analysed: clang said ...`).
    NotAnalysed {
        /// The message, without the `not analysed: ` prefix.
        why: String,
    },
}

impl ProgramResult {
    /// The exit status this program contributes: that of its own run, and 1 when it could not
    /// be analysed (nothing in it is proved).
    pub fn exit_code(&self) -> u8 {
        match &self.outcome {
            ProgramOutcome::Analysed { exit, .. } => (*exit).min(1),
            ProgramOutcome::NotAnalysed { .. } => 1,
        }
    }

    fn status(&self) -> &'static str {
        match self.outcome {
            ProgramOutcome::Analysed { .. } => "analysed",
            ProgramOutcome::NotAnalysed { .. } => NOT_ANALYSED,
        }
    }

    /// The SARIF results of this program (a `not-analysed` one for a program without a run).
    fn results(&self) -> Vec<Value> {
        match &self.outcome {
            ProgramOutcome::Analysed { sarif, .. } => {
                (sarif.get("results").and_then(Value::as_array).cloned()).unwrap_or_default()
            }
            ProgramOutcome::NotAnalysed { why } => {
                let file = self.files.first().map_or("unknown", String::as_str);
                vec![json!({
                    "ruleId": NOT_ANALYSED,
                    "level": "error",
                    "message": {"text": format!("not analysed: {why}")},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": encode(file)}}}],
                    "properties": {"program": self.name},
                })]
            }
        }
    }

    fn notifications(&self) -> Vec<Value> {
        match &self.outcome {
            ProgramOutcome::Analysed { sarif, .. } => (sarif
                .pointer("/invocations/0/toolExecutionNotifications")
                .and_then(Value::as_array)
                .cloned())
            .unwrap_or_default(),
            ProgramOutcome::NotAnalysed { .. } => Vec::new(),
        }
    }

    /// The assertion counts of the program's report (`summary` of JSON v1).
    fn summary(&self) -> Value {
        match &self.outcome {
            ProgramOutcome::Analysed {
                report: Some(r), ..
            } => r.get("summary").cloned().unwrap_or(json!({})),
            ProgramOutcome::Analysed { sarif, .. } => (sarif.pointer("/properties/summary"))
                .cloned()
                .unwrap_or(json!({})),
            ProgramOutcome::NotAnalysed { .. } => json!({}),
        }
    }

    /// The record of the program in a tree document.
    fn record(&self) -> Value {
        json!({
            "name": self.name,
            "files": self.files,
            "status": self.status(),
            "exit_code": self.exit_code(),
            "summary": self.summary(),
        })
    }
}

/// The results of a whole tree: every program (sorted by name) and the tree's own notes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TreeReport {
    /// The programs, sorted by name, each once.
    pub programs: Vec<ProgramResult>,
    /// Notes about the tree (units of no program), each once.
    pub notes: Vec<String>,
    /// `--quiet`: findings only, no summary lines.
    pub quiet: bool,
}

/// The bundle a program's own run hands to the tree (`--tree-child`): its exit status, its JSON
/// v1 document and its SARIF run, all from one report.
pub fn child_bundle(report: &Report) -> Value {
    let sarif = super::sarif::document(report);
    let run = sarif.pointer("/runs/0").cloned().unwrap_or(json!({}));
    json!({
        "exit": report.exit_code(),
        "report": super::json::value(report),
        "sarif": run,
    })
}

/// The bundle of a unit's harness facts (`--suggest-harness` inside `--per-program`).
pub fn suggestion_bundle(
    program: &crate::ir::Program,
    found: &crate::harness::discover::Suggestion,
) -> Value {
    let mut buf = Vec::new();
    let _ = super::suggest::render(program, found, &[], Format::Json, &mut buf);
    json!({"exit": 0, "suggestion": serde_json::from_slice::<Value>(&buf).unwrap_or(Value::Null)})
}

/// The exit status a bundle records (0 when it records none).
pub fn bundle_exit(bundle: &Value) -> u8 {
    bundle.get("exit").and_then(Value::as_u64).unwrap_or(0) as u8
}

/// Writes a bundle for the tree to read.
pub fn write_bundle(bundle: &Value, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer(&mut *out, bundle)?;
    writeln!(out)
}

/// The result of program `name` from its run's bundle: every assertion, race, result and note
/// of it is labelled with the program. `None` when the bundle is not one [`child_bundle`]
/// writes.
pub fn from_bundle(name: &str, files: Vec<String>, bundle: &Value) -> Option<ProgramResult> {
    let exit = u8::try_from(bundle.get("exit")?.as_u64()?).ok()?;
    let mut report = bundle.get("report")?.clone();
    let mut sarif = bundle.get("sarif")?.clone();
    report.as_object()?;
    sarif.as_object()?;
    let label = json!(name);
    report["program"] = label.clone();
    for key in ["assertions", "races"] {
        if let Some(list) = report.get_mut(key).and_then(Value::as_array_mut) {
            for a in list.iter_mut().filter(|a| a.is_object()) {
                a["program"] = label.clone();
            }
        }
    }
    let summary = report.get("summary").cloned().unwrap_or(json!({}));
    if let Some(results) = sarif.get_mut("results").and_then(Value::as_array_mut) {
        for r in results.iter_mut().filter(|r| r.is_object()) {
            if !r.get("properties").is_some_and(Value::is_object) {
                r["properties"] = json!({});
            }
            r["properties"]["program"] = label.clone();
        }
    }
    if let Some(ns) = (sarif.pointer_mut("/invocations/0/toolExecutionNotifications"))
        .and_then(Value::as_array_mut)
    {
        for n in ns.iter_mut().filter(|n| n.is_object()) {
            n["properties"] = json!({"program": name});
        }
    }
    if !sarif.get("properties").is_some_and(Value::is_object) {
        sarif["properties"] = json!({});
    }
    sarif["properties"]["summary"] = summary;
    Some(ProgramResult {
        name: name.to_string(),
        files,
        outcome: ProgramOutcome::Analysed {
            exit: exit.min(1),
            report: Some(report),
            sarif,
        },
    })
}

impl TreeReport {
    /// The exit status of the tree: 1 when a program has a finding that is neither
    /// suppressed nor in the baseline (or could not be analysed), else 0.
    pub fn exit_code(&self) -> u8 {
        (self.programs.iter().map(ProgramResult::exit_code))
            .max()
            .unwrap_or(0)
    }

    /// Sorts the programs by name and the notes into their first order, each once.
    pub fn normalize(&mut self) {
        self.programs.sort_by(|a, b| a.name.cmp(&b.name));
        let mut seen = std::collections::HashSet::new();
        self.notes.retain(|n| seen.insert(n.clone()));
    }

    /// Writes the tree in `format`.
    pub fn render(&self, format: Format, out: &mut dyn Write) -> io::Result<()> {
        match format {
            Format::Json => match self.json() {
                Some(doc) => {
                    super::layout::write(out, &doc)?;
                    writeln!(out)
                }
                None => Err(io::Error::other(
                    "a JSON report needs the JSON documents of every program; SARIF inputs do \
                     not carry them (write the shards with --format json)",
                )),
            },
            Format::Sarif => {
                serde_json::to_writer_pretty(&mut *out, &self.sarif())?;
                writeln!(out)
            }
            Format::Gnu => self.lines(false, out),
            Format::Human => self.lines(true, out),
        }
    }

    /// Whether every program has its JSON document (so that [`Format::Json`] can be written).
    pub fn has_json(&self) -> bool {
        self.programs.iter().all(|p| match &p.outcome {
            ProgramOutcome::Analysed { report, .. } => report.is_some(),
            ProgramOutcome::NotAnalysed { .. } => true,
        })
    }

    fn totals(&self) -> Map<String, Value> {
        let mut totals = Map::new();
        for p in &self.programs {
            if let Some(s) = p.summary().as_object() {
                for (k, v) in s {
                    let n = v.as_u64().unwrap_or(0);
                    let t = totals.entry(k.clone()).or_insert(json!(0));
                    *t = json!(t.as_u64().unwrap_or(0).saturating_add(n));
                }
            }
        }
        totals
    }

    fn json(&self) -> Option<Value> {
        let mut programs = Vec::new();
        for p in &self.programs {
            let mut record = p.record();
            match &p.outcome {
                ProgramOutcome::Analysed { report, sarif, .. } => {
                    record["report"] = report.clone()?;
                    record["sarif"] = sarif.clone();
                }
                ProgramOutcome::NotAnalysed { why } => {
                    record["reason"] = json!(format!("not analysed: {why}"));
                }
            }
            programs.push(record);
        }
        Some(json!({
            "version": 1,
            "tool": {"name": "watts", "version": env!("CARGO_PKG_VERSION")},
            "per_program": true,
            "programs": programs,
            "summary": {
                "programs": self.programs.len(),
                "not_analysed": self.programs.iter()
                    .filter(|p| matches!(p.outcome, ProgramOutcome::NotAnalysed { .. })).count(),
                "with_findings": self.programs.iter().filter(|p| p.exit_code() > 0).count(),
                "assertions": Value::Object(self.totals()),
            },
            "exit_code": self.exit_code(),
            "notes": self.notes,
        }))
    }

    /// One SARIF run for the whole tree (code scanning keeps one run per tool and category):
    /// the tool, rules and base of the first analysed program's run, every program's results
    /// and notes (labelled), and the programs' records in `properties.programs`.
    fn sarif(&self) -> Value {
        let skeleton = self.programs.iter().find_map(|p| match &p.outcome {
            ProgramOutcome::Analysed { sarif, .. } => Some(sarif.clone()),
            ProgramOutcome::NotAnalysed { .. } => None,
        });
        let mut run = skeleton.unwrap_or_else(|| {
            json!({
                "tool": {"driver": {"name": "watts", "version": env!("CARGO_PKG_VERSION"),
                                    "rules": []}},
                "invocations": [{"executionSuccessful": true, "toolExecutionNotifications": []}],
                "columnKind": "unicodeCodePoints",
            })
        });
        let mut results = Vec::new();
        let mut notifications = Vec::new();
        for p in &self.programs {
            results.extend(p.results());
            notifications.extend(p.notifications());
        }
        for n in &self.notes {
            notifications.push(json!({"level": "note", "message": {"text": n}}));
        }
        // `ruleIndex` points into the rules of the run the results came from, which are the
        // same in every program's run (one watts version); the rule of unanalysed programs is
        // added once.
        if let Some(rules) = run
            .pointer_mut("/tool/driver/rules")
            .and_then(Value::as_array_mut)
        {
            if !rules
                .iter()
                .any(|r| r.get("id") == Some(&json!(NOT_ANALYSED)))
            {
                rules.push(json!({
                    "id": NOT_ANALYSED,
                    "name": "NotAnalysed",
                    "shortDescription": {"text": "A program of the tree could not be analysed."},
                    "fullDescription": {"text": "clang rejected one of its units, or the \
                        analysis of the program stopped (out of memory, an internal error); \
                        nothing in it is proved."},
                    "defaultConfiguration": {"level": "error"},
                }));
            }
        }
        run["results"] = json!(results);
        run["invocations"] =
            json!([{"executionSuccessful": true, "toolExecutionNotifications": notifications}]);
        if !run.get("properties").is_some_and(Value::is_object) {
            run["properties"] = json!({});
        }
        if let Some(props) = run["properties"].as_object_mut() {
            props.remove("summary");
            props.insert(
                "programs".into(),
                json!(self
                    .programs
                    .iter()
                    .map(ProgramResult::record)
                    .collect::<Vec<_>>()),
            );
            props.insert("exitCode".into(), json!(self.exit_code()));
        }
        json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [run],
        })
    }

    /// The GNU lines (one per finding, naming its program) or the human report (the same
    /// findings under a line per program that has some), then the summary.
    fn lines(&self, human: bool, out: &mut dyn Write) -> io::Result<()> {
        for p in &self.programs {
            let shown: Vec<String> = (p.results().iter())
                .filter(|r| is_new(r))
                .map(|r| finding_line(r, &p.name, human))
                .collect();
            if human && !shown.is_empty() {
                writeln!(out, "{}", escape(&format!("program {}:", p.name)))?;
            }
            for line in shown {
                writeln!(out, "{}", escape(&line))?;
            }
        }
        if !self.quiet {
            for n in &self.notes {
                writeln!(out, "{}", escape(&format!("note: {n}")))?;
            }
            writeln!(out, "{}", self.closing_line())?;
        }
        Ok(())
    }

    /// `300 programs: 290 without findings, 8 with findings, 2 not analysed; 812 assertions:
    /// 790 proved, 22 may fail`.
    pub fn closing_line(&self) -> String {
        let n = self.programs.len();
        let not = (self.programs.iter())
            .filter(|p| matches!(p.outcome, ProgramOutcome::NotAnalysed { .. }))
            .count();
        let with = self.programs.iter().filter(|p| p.exit_code() > 0).count() - not;
        let totals = self.totals();
        let count = |k: &str| totals.get(k).and_then(Value::as_u64).unwrap_or(0) as usize;
        let summary = super::Summary {
            assertions: count("assertions"),
            proved: count("proved"),
            unreachable: count("unreachable"),
            may_fail: count("may_fail"),
            violated: count("violated"),
            suppressed: count("suppressed"),
            baselined: count("baselined"),
        };
        let mut parts = vec![format!("{} without findings", n - with - not)];
        if with > 0 {
            parts.push(format!("{with} with findings"));
        }
        if not > 0 {
            parts.push(format!("{not} not analysed"));
        }
        format!(
            "{}: {}; {}",
            super::plural(n, "program"),
            parts.join(", "),
            summary.line()
        )
    }
}

/// Whether a SARIF result counts: a warning or error that is neither suppressed nor in the
/// baseline.
fn is_new(r: &Value) -> bool {
    let level = r.get("level").and_then(Value::as_str).unwrap_or("warning");
    let suppressed =
        (r.get("suppressions").and_then(Value::as_array)).is_some_and(|s| !s.is_empty());
    let baselined = r.get("baselineState").and_then(Value::as_str) == Some("unchanged");
    matches!(level, "warning" | "error") && !suppressed && !baselined
}

/// `file:line:col: warning: message [rule] [program NAME]` (human: indented, without the
/// program, which the line above names).
fn finding_line(r: &Value, program: &str, human: bool) -> String {
    let loc = r.pointer("/locations/0/physicalLocation");
    let uri = (loc.and_then(|l| l.pointer("/artifactLocation/uri")))
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    let path = decode(uri.strip_prefix("file://").unwrap_or(uri));
    let mut at = path;
    for key in ["startLine", "startColumn"] {
        if let Some(n) = loc.and_then(|l| l.pointer(&format!("/region/{key}"))) {
            at.push_str(&format!(":{n}"));
        }
    }
    let level = r.get("level").and_then(Value::as_str).unwrap_or("warning");
    let text = (r.pointer("/message/text").and_then(Value::as_str)).unwrap_or_default();
    let rule = r.get("ruleId").and_then(Value::as_str).unwrap_or_default();
    if human {
        format!("  {at}: {level}: {text} [{rule}]")
    } else {
        format!("{at}: {level}: {text} [{rule}] [program {program}]")
    }
}

/// Percent-encodes a path for a URI (keeping `/`), as the SARIF of one program does.
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

/// The path of a percent-encoded URI path (a `%` not before two hex digits stays).
fn decode(uri: &str) -> String {
    let b = uri.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).and_then(|&c| hex(c)),
            b.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads the reports of shards (the JSON or SARIF output of `watts analyze --per-program`)
/// into one tree. Errors name the file: not a regular file, too large, not JSON, not a tree
/// report, or a program in two of them.
pub fn read(paths: &[std::path::PathBuf]) -> Result<TreeReport, String> {
    let mut tree = TreeReport::default();
    let mut from: std::collections::HashMap<String, &Path> = Default::default();
    for path in paths {
        let bad = |why: &str| format!("{}: {why}", path.display());
        let meta = std::fs::metadata(path).map_err(|e| bad(&e.to_string()))?;
        if !meta.is_file() {
            return Err(bad("not a regular file"));
        }
        if meta.len() > MAX_INPUT_BYTES {
            return Err(bad("larger than 1 GiB"));
        }
        let text = std::fs::read_to_string(path).map_err(|e| bad(&e.to_string()))?;
        let doc: Value = serde_json::from_str(&text).map_err(|e| bad(&format!("not JSON: {e}")))?;
        let (programs, notes) = if doc.get("runs").is_some() {
            from_sarif(&doc)
        } else {
            from_json(&doc)
        }
        .ok_or_else(|| {
            bad(
                "not the JSON or SARIF output of `watts analyze --per-program` (or of \
                 `watts merge`)",
            )
        })?;
        for p in programs {
            if let Some(other) = from.insert(p.name.clone(), path) {
                return Err(format!(
                    "program {} is in both {} and {}: shards of one tree do not overlap",
                    p.name,
                    other.display(),
                    path.display()
                ));
            }
            tree.programs.push(p);
        }
        tree.notes.extend(notes);
    }
    tree.normalize();
    Ok(tree)
}

fn strings(v: &Value) -> Option<Vec<String>> {
    (v.as_array()?.iter())
        .map(|s| s.as_str().map(str::to_string))
        .collect()
}

fn name_and_files(record: &Value) -> Option<(String, Vec<String>)> {
    let name = record.get("name")?.as_str()?.to_string();
    Some((name, strings(record.get("files")?)?))
}

fn from_json(doc: &Value) -> Option<(Vec<ProgramResult>, Vec<String>)> {
    if doc.get("per_program") != Some(&json!(true)) {
        return None;
    }
    let mut out = Vec::new();
    for record in doc.get("programs")?.as_array()? {
        let (name, files) = name_and_files(record)?;
        let outcome = match record.get("status")?.as_str()? {
            "analysed" => {
                let report = record.get("report")?;
                let sarif = record.get("sarif")?;
                if !(report.is_object() && sarif.is_object()) {
                    return None;
                }
                ProgramOutcome::Analysed {
                    exit: u8::try_from(record.get("exit_code")?.as_u64()?.min(1)).ok()?,
                    report: Some(report.clone()),
                    sarif: sarif.clone(),
                }
            }
            NOT_ANALYSED => {
                let reason = record.get("reason")?.as_str()?;
                ProgramOutcome::NotAnalysed {
                    why: reason
                        .strip_prefix("not analysed: ")
                        .unwrap_or(reason)
                        .to_string(),
                }
            }
            _ => return None,
        };
        out.push(ProgramResult {
            name,
            files,
            outcome,
        });
    }
    Some((out, strings(doc.get("notes")?)?))
}

fn from_sarif(doc: &Value) -> Option<(Vec<ProgramResult>, Vec<String>)> {
    let runs = doc.get("runs")?.as_array()?;
    let [run] = runs.as_slice() else { return None };
    let records = run.pointer("/properties/programs")?.as_array()?;
    let results = run.get("results")?.as_array()?;
    let notifications = (run.pointer("/invocations/0/toolExecutionNotifications"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let program_of = |v: &Value| {
        v.pointer("/properties/program")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let mut names = std::collections::HashSet::new();
    let mut out = Vec::new();
    for record in records {
        let (name, files) = name_and_files(record)?;
        names.insert(name.clone());
        let mine = |list: &[Value]| -> Vec<Value> {
            (list.iter())
                .filter(|v| program_of(v).as_deref() == Some(name.as_str()))
                .cloned()
                .collect()
        };
        let outcome = match record.get("status")?.as_str()? {
            "analysed" => {
                let mut sarif = run.clone();
                sarif["results"] = json!(mine(results));
                sarif["invocations"] = json!([{"executionSuccessful": true,
                    "toolExecutionNotifications": mine(&notifications)}]);
                sarif["properties"] = json!({"summary": record.get("summary")?});
                let rules = sarif.pointer_mut("/tool/driver/rules");
                if let Some(rules) = rules.and_then(Value::as_array_mut) {
                    rules.retain(|r| r.get("id") != Some(&json!(NOT_ANALYSED)));
                }
                for (k, v) in run.get("properties")?.as_object()? {
                    if !matches!(k.as_str(), "programs" | "exitCode" | "notes") {
                        sarif["properties"][k] = v.clone();
                    }
                }
                ProgramOutcome::Analysed {
                    exit: u8::try_from(record.get("exit_code")?.as_u64()?.min(1)).ok()?,
                    report: None,
                    sarif,
                }
            }
            NOT_ANALYSED => {
                let r = mine(results).into_iter().next()?;
                let text = r.pointer("/message/text")?.as_str()?;
                ProgramOutcome::NotAnalysed {
                    why: text
                        .strip_prefix("not analysed: ")
                        .unwrap_or(text)
                        .to_string(),
                }
            }
            _ => return None,
        };
        out.push(ProgramResult {
            name,
            files,
            outcome,
        });
    }
    // A result or note of no program of the report is not ours.
    if (results.iter()).any(|r| program_of(r).is_none_or(|n| !names.contains(&n))) {
        return None;
    }
    let notes = (notifications.iter())
        .filter(|n| program_of(n).is_none())
        .filter_map(|n| n.pointer("/message/text").and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    Some((out, notes))
}
