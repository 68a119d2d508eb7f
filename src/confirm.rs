//! `--confirm`: the analysis's open verdicts checked by executing the program
//! ([`crate::explore`]), merged into the run's [`Verdicts`].
//!
//! First every execution of the program is run when it can be (`explore::proof`), which
//! proves the assertions none of them fails; then the program is executed under many
//! schedules (within the bounds) to find real failures of the assertions still open, and
//! executions that reach both accesses of a race at once.
//!
//! Invariant (soundness): a witness makes an assertion `violated` only once it replayed, from
//! the start, to the same failure; a proof needs every execution run, with nothing restricted
//! or abandoned; otherwise the absence of a witness never changes a verdict. A witness for an
//! assertion the analysis proved means one of the two is wrong: both facts are reported.

use crate::config::{Config, ConfirmOptions};
use crate::explore::{self, Inconclusive, RaceMemory, RaceTarget, Replayed};
use crate::ir::{AssertId, Program};
use crate::verdicts::{Confirmed, Found, Notice, Search, Status, Verdicts};
use crate::witness::ProgramRef;
use std::collections::BTreeSet;
use std::time::Instant;

use crate::limits::{ASSERTION_SHARE, PROOF_SHARE};

/// Runs `--confirm` with `options` on the open verdicts of `verdicts` (assertions that may
/// fail, races), and records what it found there.
pub fn run(program: &Program, config: &Config, options: &ConfirmOptions, verdicts: &mut Verdicts) {
    verdicts.witness_program = program_ref(config);
    let mut targets: BTreeSet<AssertId> = (verdicts.asserts.iter())
        .filter(|a| a.status() == Status::MayFail)
        .map(|a| a.result.id)
        .collect();
    let races = race_targets(program, verdicts);
    if targets.is_empty() && races.is_empty() {
        return;
    }
    let start = Instant::now();
    if !targets.is_empty() {
        prove_by_exploration(program, options, verdicts, &mut targets);
    }
    let remaining = options.timeout.saturating_sub(start.elapsed());
    if !targets.is_empty() {
        // Races are confirmed by executions of their own: a state where a race's accesses
        // are both next ends the execution, which must not hide a failing assertion further on.
        let share = if races.is_empty() {
            remaining
        } else {
            remaining.mul_f64(ASSERTION_SHARE)
        };
        let options = ConfirmOptions {
            timeout: share,
            ..options.clone()
        };
        confirm_assertions(program, &options, &targets, verdicts);
    }
    if !races.is_empty() {
        let options = ConfirmOptions {
            timeout: options.timeout.saturating_sub(start.elapsed()),
            ..options.clone()
        };
        confirm_races(program, &options, races, verdicts);
    }
}

/// `--confirm` of the assertions of `targets`: executions that fail them.
fn confirm_assertions(
    program: &Program,
    options: &ConfirmOptions,
    targets: &BTreeSet<AssertId>,
    verdicts: &mut Verdicts,
) {
    let confirmation = match explore::confirm(program, options, targets, Vec::new()) {
        Ok(found) => found,
        Err(why) => {
            verdicts.notes.push(Notice::CannotExecute(why));
            return;
        }
    };
    let found = &confirmation.outcome;
    verdicts.executions += found.executions;
    // Soundness: a witness is reported only once it replayed, from the start, through the
    // same interpreter `watts replay` runs, to the same failure: a search that recorded a
    // schedule its replay does not follow (a bug of watts) loses the witness, never reports a
    // failure no execution has.
    let mut replayed = BTreeSet::new();
    for (id, violation) in &found.violations {
        match explore::replay(program, violation) {
            Ok(Replayed::Fails { .. }) => {
                replayed.insert(*id);
            }
            other => verdicts.notes.push(Notice::NoReplay {
                id: *id,
                replayed: other,
            }),
        }
    }
    let mut found_proved = Vec::new();
    for a in &mut verdicts.asserts {
        let id = a.result.id;
        if let Some(violation) = (found.violations.get(&id)).filter(|_| replayed.contains(&id)) {
            if matches!(a.status(), Status::Proved | Status::Unreachable) {
                found_proved.push(id);
            }
            a.confirmed = Some(Confirmed::Violated(Found {
                witness: violation.clone().into(),
                found_by: (!violation.found_by.is_empty()).then(|| violation.found_by.clone()),
            }));
        } else if a.status() == Status::MayFail {
            a.confirmed = Some(Confirmed::NotFound(if found.exhaustive() {
                Search::Exhaustive
            } else {
                Search::Bounded {
                    executions: found.executions,
                    why: Inconclusive::of(&confirmation, options),
                }
            }));
        }
    }
    for id in found_proved {
        verdicts.notes.push(Notice::ProvedYetFails(id));
    }
    if !found.unsupported.is_empty() {
        verdicts.notes.push(Notice::Abandoned {
            executions: found.executions,
            abandoned: found.unsupported.clone(),
        });
    }
}

/// `--confirm` of the race check's races: executions that reach a state where two threads
/// are about to run two conflicting accesses of one race (`explore::RaceTarget`).
fn confirm_races(
    program: &Program,
    options: &ConfirmOptions,
    races: Vec<RaceTarget>,
    verdicts: &mut Verdicts,
) {
    let targets = races.iter().map(|r| r.id).collect();
    let confirmation = match explore::confirm(program, options, &targets, races.clone()) {
        Ok(found) => found,
        Err(why) => {
            let notice = Notice::CannotExecute(why);
            if !verdicts.notes.contains(&notice) {
                verdicts.notes.push(notice);
            }
            return;
        }
    };
    let found = &confirmation.outcome;
    verdicts.executions += found.executions;
    let Some(check) = &mut verdicts.races else {
        return;
    };
    for (k, confirmed) in check.confirmed.iter_mut().enumerate() {
        let id = AssertId::from(program.asserts.len() + k);
        let Some(v) = found.violations.get(&id) else {
            continue;
        };
        // Soundness: the witness is a replayed execution that reaches both accesses at once
        // (`explore::race_witness`); without it, the race stays `may-race`.
        if let Some(witness) = explore::race_witness(program, &races, v) {
            *confirmed = Some(Found {
                witness,
                found_by: (!v.found_by.is_empty()).then(|| v.found_by.clone()),
            });
        }
    }
}

/// The proof by exploration of `--confirm` (`explore::proof`) on the assertions of `targets`;
/// those it proves leave `targets`.
fn prove_by_exploration(
    program: &Program,
    options: &ConfirmOptions,
    verdicts: &mut Verdicts,
    targets: &mut BTreeSet<AssertId>,
) {
    let start = Instant::now();
    let proof = explore::proof::prove(
        program,
        targets,
        start + options.timeout.mul_f64(PROOF_SHARE),
    );
    for a in &mut verdicts.asserts {
        if proof.proved.contains(&a.result.id) {
            // Soundness: `explore::proof` ran every execution of the program, and none fails
            // this assertion.
            a.confirmed = Some(Confirmed::ProvedByRunning {
                executions: proof.executions,
            });
            targets.remove(&a.result.id);
        }
    }
    verdicts.executions = proof.executions;
    if let (false, Some(gap)) = (targets.is_empty(), &proof.gap) {
        verdicts.notes.push(Notice::NoProof(gap.clone()));
    }
}

/// The races of the race check as targets of `--confirm`, with ids past the assertions'.
fn race_targets(program: &Program, verdicts: &Verdicts) -> Vec<RaceTarget> {
    let Some(races) = &verdicts.races else {
        return Vec::new();
    };
    let global_of = |memory: &str| {
        (program.globals.iter().enumerate())
            .filter(|(_, g)| {
                memory.strip_prefix(g.name.as_str()).is_some_and(|rest| {
                    rest.is_empty() || rest.starts_with('.') || rest.starts_with('[')
                })
            })
            .max_by_key(|(_, g)| g.name.len())
            .map(|(i, _)| i as u32)
    };
    (races.check.races.iter().enumerate())
        .map(|(k, race)| RaceTarget {
            id: AssertId::from(program.asserts.len() + k),
            spans: race.accesses.iter().filter_map(|a| a.span).collect(),
            memory: match global_of(&race.memory.name) {
                Some(g) => RaceMemory::Global(g),
                None => RaceMemory::NotGlobal,
            },
        })
        .collect()
}

/// How a witness file of this run names the program: its inputs (absolute, so that
/// `watts replay` works from any directory), their flags, and the harness.
fn program_ref(config: &Config) -> ProgramRef {
    let cwd = std::env::current_dir().unwrap_or_default();
    let absolute = |p: &std::path::Path| {
        (std::fs::canonicalize(p).ok()).unwrap_or_else(|| crate::paths::absolute(&cwd, p))
    };
    let input_args: Vec<Vec<String>> = (config.inputs.iter())
        .map(|p| {
            config
                .units
                .get(p)
                .map(|u| u.args.clone())
                .unwrap_or_default()
        })
        .collect();
    ProgramRef {
        inputs: (config.inputs.iter())
            .map(|p| absolute(p).display().to_string())
            .collect(),
        inputs_from_witness: Vec::new(),
        input_args: if input_args.iter().all(Vec::is_empty) {
            Vec::new()
        } else {
            input_args
        },
        clang_args: witness_clang_args(&config.clang_args, &cwd),
        init: config.harness.as_ref().and_then(|h| h.init.clone()),
        entries: (config.harness.as_ref())
            .map(|h| h.entries.iter().map(|e| e.to_string()).collect())
            .unwrap_or_default(),
        entries_from: (config.harness.as_ref())
            .map(|h| h.tables.iter().map(|e| e.table_text()).collect())
            .unwrap_or_default(),
        entries_exported: config.harness.as_ref().is_some_and(|h| h.exported),
        assume_no_write: config.assume_no_write.clone(),
    }
}

/// The clang arguments of `args` that a witness keeps, with relative path values made
/// absolute against `cwd` (where watts runs): those the gate lets through. The others
/// (warnings, optimisation, debug flags...) do not change what the program means, or would be
/// refused on replay (`crate::replay`).
fn witness_clang_args(args: &[String], cwd: &std::path::Path) -> Vec<String> {
    crate::project::gate::Gate::new([cwd]).filter(args, cwd)
}
