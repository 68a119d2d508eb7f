//! The one finding type every format renders: an assertion site joined with its verdict and
//! its resolved source position.
//!
//! The values of a finding and of `watts invariants` are `analysis::NamedRange`s (name, canonical
//! interval, C type), shown in their C type in every format (`value_text`): `b ∈ [0, 255]` for an
//! `unsigned char`, in JSON the same text as a string.

use super::Report;
use crate::analysis::{Flow, NamedRange};
use crate::ir::{AssertId, AssertInfo, AssertKind};
use crate::verdicts::{Assertion, Status};

/// One assertion site and what the analysis concluded about it.
#[derive(Clone, Debug)]
pub struct Finding<'a> {
    /// The assertion (`A1` is `AssertId(0)`).
    pub id: AssertId,
    /// The site in the program.
    pub info: &'a AssertInfo,
    /// The verdict.
    pub status: Status,
    /// Why, in one sentence.
    pub reason: String,
    /// Values of the condition's variables where it may fail.
    pub values: &'a [NamedRange],
    /// Threads in which the assertion is reachable.
    pub threads: &'a [String],
    /// The name of the function that contains it.
    pub function: &'a str,
    /// The source file path (the span's, else the first input).
    pub path: String,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// 1-based column in characters, when known (recovered from the source when debug info
    /// has none): the same in every format.
    pub column: Option<u32>,
    /// The end of the assertion call: line and the column after its `)`, when the source is
    /// there.
    pub end: Option<(u32, u32)>,
    /// For a may-fail assertion in a flow-sensitive mode: the store each relevant load read.
    pub explanation: &'a [Flow],
    /// For a violated assertion: the execution that fails it.
    pub witness: Option<&'a crate::witness::Witness>,
    /// For a violated assertion: which search of `--confirm` found the witness.
    pub found_by: Option<&'a str>,
    /// Interference combinations pruned as infeasible for the threads that reach it.
    pub pruned: usize,
    /// Hidden by a `watts-ignore` comment (still not proved).
    pub suppressed: bool,
    /// Matched a finding of the baseline (still not proved).
    pub baselined: bool,
    /// What identifies the finding across runs when lines move: `function:condition`, with
    /// `#k` appended for the k-th assertion of the same function and condition.
    pub fingerprint: String,
}

/// Shown when the analysis returned no verdict for an assertion: a bug, but the user still
/// deserves a sound answer rather than a crash.
const NO_VERDICT: &str = "the analysis produced no verdict for this assertion";

pub(super) fn collect(report: &Report) -> Vec<Finding<'_>> {
    let program = &report.program;
    if !report.config.checks.asserts {
        return Vec::new();
    }
    // Verdicts are documented to be indexed like `Program::asserts`, but look them up by id so
    // that a short or reordered list cannot attach a verdict to the wrong site.
    let mut by_id: Vec<Option<&Assertion>> = vec![None; program.asserts.len()];
    for v in &report.verdicts.asserts {
        if let Some(slot) = by_id.get_mut(v.result.id.index()) {
            *slot = Some(v);
        }
    }
    let mut seen: std::collections::BTreeMap<(&str, &str), usize> = Default::default();
    program
        .asserts
        .iter()
        .zip(by_id)
        .enumerate()
        .map(|(i, (info, verdict))| {
            let (status, reason, values, threads) = match verdict {
                Some(v) => (
                    v.status(),
                    super::words::assertion_reason(v),
                    v.values(),
                    &v.result.threads[..],
                ),
                None => (Status::MayFail, NO_VERDICT.to_string(), &[][..], &[][..]),
            };
            let function = program
                .funcs
                .get(info.func.index())
                .map_or("?", |f| f.name.as_str());
            let k = seen.entry((function, info.condition.as_str())).or_insert(0);
            *k += 1;
            let fingerprint = if *k == 1 {
                format!("{function}:{}", info.condition)
            } else {
                format!("{function}:{}#{k}", info.condition)
            };
            let region = report.region(info.span);
            Finding {
                id: AssertId::from(i),
                info,
                status,
                reason,
                values,
                threads,
                function: program
                    .funcs
                    .get(info.func.index())
                    .map_or("?", |f| f.name.as_str()),
                path: report.span_path(info.span),
                line: info.span.map(|s| s.line).filter(|&l| l > 0),
                column: region.and_then(|r| r.column()),
                end: region.and_then(|r| r.end()),
                explanation: verdict.map_or(&[][..], Assertion::explanation),
                witness: verdict.and_then(|v| Some(&v.found()?.witness)),
                found_by: verdict.and_then(|v| v.found()?.found_by.as_deref()),
                pruned: verdict.map_or(0, |v| v.result.pruned),
                suppressed: report.suppressed.get(i).copied().unwrap_or(false),
                baselined: (report.baselined.as_ref())
                    .and_then(|b| b.get(i).copied())
                    .unwrap_or(false),
                fingerprint,
            }
        })
        .collect()
}

impl Finding<'_> {
    /// The stable id of JSON and SARIF: `A1`, `A2`, ... (1-based).
    pub fn label_id(&self) -> String {
        format!("A{}", self.id.index() + 1)
    }

    /// Whether this finding is a warning or error (as opposed to a verbose-only note).
    pub fn is_problem(&self) -> bool {
        matches!(self.status, Status::MayFail | Status::Violated)
    }

    /// Whether it makes the exit status 1 and is shown by default: a problem that is neither
    /// suppressed nor in the baseline.
    pub fn is_new_problem(&self) -> bool {
        self.is_problem() && !self.suppressed && !self.baselined
    }

    /// The numbered notes of the explanation: `(1) the load of `x` at a.c:12:9 may read the
    /// store at a.c:30:5 in thread writer`.
    pub fn explanation_notes(&self, path_of: impl Fn(crate::ir::Span) -> String) -> Vec<String> {
        let at = |s: Option<crate::ir::Span>| {
            s.map(|s| format!(" at {}:{}:{}", path_of(s), s.line, s.col))
                .unwrap_or_default()
        };
        self.explanation
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let source = match (&f.store, &f.store_thread) {
                    (Some(_), Some(t)) => format!("the store{} in thread {t}", at(f.store)),
                    (Some(_), None) => format!("the store{} of its own thread", at(f.store)),
                    (None, Some(t)) => format!("the initial value (before thread {t} stores)"),
                    (None, None) => "its own thread's value".to_string(),
                };
                let what = if f.location.is_empty() {
                    "the load".to_string()
                } else {
                    format!("the load of `{}`", f.location)
                };
                format!("({}) {what}{} may read {source}", i + 1, at(f.load))
            })
            .collect()
    }

    /// The diagnostic code: `assert-may-fail`, `assert-violated`, ...
    pub fn code(&self) -> &'static str {
        match self.status {
            Status::Proved => "assert-proved",
            Status::Unreachable => "assert-unreachable",
            Status::MayFail => "assert-may-fail",
            Status::Violated => "assert-violated",
        }
    }

    /// The assertion as the user wrote it: `x > 0`, or `reach_error()`.
    pub fn expression(&self) -> String {
        match self.info.kind {
            AssertKind::ReachError if !self.info.condition.ends_with(')') => {
                format!("{}()", self.info.condition)
            }
            AssertKind::ReachError => self.info.condition.clone(),
            AssertKind::Macro | AssertKind::VerifierAssert => self.info.condition.clone(),
        }
    }

    /// One line for the GNU format: ``assertion `x > 0` may fail``.
    pub fn headline(&self) -> String {
        let what = match self.status {
            Status::Proved => "holds",
            Status::Unreachable => "is unreachable",
            Status::MayFail => "may fail",
            Status::Violated => "is violated",
        };
        format!("assertion `{}` {what}", self.expression())
    }

    /// The text of the label under the assertion in a snippet: `` `x > 0` may be false``.
    pub fn label(&self) -> String {
        let reach = self.info.kind == AssertKind::ReachError;
        let what = match (self.status, reach) {
            (Status::Proved, false) => "always holds",
            (Status::Proved, true) => "is never reached",
            (Status::Unreachable, _) => "is never reached",
            (Status::MayFail, false) => "may be false",
            (Status::MayFail, true) => "may be reached",
            (Status::Violated, false) => "is false in some execution",
            (Status::Violated, true) => "is reached in some execution",
        };
        format!("`{}` {what}", self.expression())
    }

    /// `in thread main: x ∈ [0, 10], y = 5`, or `None` when there is nothing to say.
    pub fn values_note(&self) -> Option<String> {
        let threads = match self.threads {
            [] => None,
            [one] => Some(format!("in thread {one}")),
            many => Some(format!("in threads {}", many.join(", "))),
        };
        let values = (!self.values.is_empty()).then(|| {
            self.values
                .iter()
                .map(format_value)
                .collect::<Vec<_>>()
                .join(", ")
        });
        match (threads, values) {
            (Some(t), Some(v)) => Some(format!("{t}: {v}")),
            (Some(t), None) => Some(format!("reached {t}")),
            (None, Some(v)) => Some(v),
            (None, None) => None,
        }
    }
}

/// `x ∈ [0, 10]` for a range, `y = 5` for a single value, `u ∈ [0, 1] or 4294967295` for an
/// unsigned value whose range crosses the sign boundary: values as the C type shows them.
pub(crate) fn format_value(v: &NamedRange) -> String {
    let text = value_text(v);
    let single = match v.ty {
        Some(ty) => ty.single(&v.range).is_some(),
        None => v.range.as_const().is_some(),
    };
    if single {
        format!("{} = {text}", v.name)
    } else {
        format!("{} ∈ {text}", v.name)
    }
}

/// The values of `v` as text (`[0, 10]`, `5`, `[0, 1] or 4294967295`), in its C type.
pub(crate) fn value_text(v: &NamedRange) -> String {
    match v.ty {
        Some(ty) => ty.show(&v.range),
        None => v.range.to_string(),
    }
}
