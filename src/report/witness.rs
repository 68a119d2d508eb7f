//! Witnesses as the report shows them: numbered steps with their words, the witness file of
//! the JSON report, and one file per witness in `--witness-dir`.
//!
//! Invariant: a witness file is written only as [`crate::witness::WitnessFile`] serialises
//! it, so that `watts replay` reads every file the report writes.

use super::words;
use super::Report;
use crate::error::InputError;
use crate::ir::{Program, Span};
use crate::witness::{self, ProgramRef, StepInfo, StepKind, StepOut, Witness, WitnessFile};

/// The steps people see, each with its line: `(3) worker: writes x = 1`. A thread's `Start`
/// step (which carries no access) is left out, and the rest are numbered in order.
pub fn lines(w: &Witness) -> Vec<(&StepInfo, String)> {
    w.steps
        .iter()
        .filter(|s| s.kind != StepKind::Start)
        .enumerate()
        .map(|(i, s)| {
            let text = format!("({}) {}: {}", i + 1, w.thread(s.tid), words::step(&s.kind));
            (s, text)
        })
        .collect()
}

/// The witness file of `w` on `program`, rebuilt as `program_ref` says, with `path_of` the
/// file of a span.
pub fn file(
    w: &Witness,
    program: &Program,
    program_ref: ProgramRef,
    path_of: &dyn Fn(Span) -> String,
) -> WitnessFile {
    let actions = witness::actions(w.steps.iter().map(|s| &s.kind));
    WitnessFile {
        version: witness::VERSION,
        program: program_ref,
        assertion: witness::assertion_ref(program, w.assertion, path_of),
        bound: w.bound,
        thread_loops: w.thread_loops,
        steps: w
            .steps
            .iter()
            .zip(&w.choices)
            .zip(actions)
            .enumerate()
            .map(|(i, ((s, &(tid, alternative)), action))| StepOut {
                step: i + 1,
                tid,
                thread: w.thread(s.tid).to_string(),
                alternative,
                input: match &s.kind {
                    StepKind::Input(v) => Some(v.value),
                    _ => None,
                },
                event: words::step(&s.kind),
                action: Some(action),
                file: s.span.map(path_of),
                line: s.span.map(|s| s.line),
                column: s.span.map(|s| s.col),
            })
            .collect(),
    }
}

/// `--witness-dir`: one file per violated assertion (`A3.json`) and per confirmed race
/// (`R1.json`).
pub fn write_all(report: &Report, dir: &std::path::Path) -> Result<(), InputError> {
    let io = |e: std::io::Error| {
        InputError::Unsupported(format!("--witness-dir {}: {e}", dir.display()))
    };
    crate::confine::check_output_dir("--witness-dir", dir).map_err(InputError::Unsupported)?;
    std::fs::create_dir_all(dir).map_err(io)?;
    // Also relative to the witness file: a tree moved with its witnesses replays.
    let at = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let races = (report.verdicts.races.iter())
        .flat_map(|r| r.confirmed.iter().enumerate())
        .filter_map(|(k, found)| Some((format!("R{}", k + 1), &found.as_ref()?.witness)));
    let witnesses = (report.verdicts.asserts.iter())
        .filter_map(|a| {
            let name = format!("A{}", a.result.id.index() + 1);
            Some((name, &a.found()?.witness))
        })
        .chain(races);
    for (name, w) in witnesses {
        let mut file = report.witness_file(w);
        file.program.inputs_from_witness = (file.program.inputs.iter())
            .map(|p| crate::paths::relative_to(std::path::Path::new(p), &at))
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        let text = serde_json::to_string_pretty(&file).expect("witness serialises");
        let text = text + "\n";
        crate::confine::write_in(
            "--witness-dir",
            dir,
            &format!("{name}.json"),
            text.as_bytes(),
        )
        .map_err(io)?;
    }
    Ok(())
}
