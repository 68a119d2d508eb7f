//! From the fixpoint to one verdict per assertion, with the notes a user needs to trust it.
//!
//! `runs` makes the fixpoints behind the verdicts: the mode's (the flow-insensitive one past the
//! memory budget) and, when some cell is protectable, the one with lock protection
//! (`sync::protection`); each assertion takes the stronger verdict of the two. `detached_roots`
//! lists the functions analysed on their own (targets of indirect calls, callbacks, exposed
//! functions; not the harness entries). With `Config::invariants` (`--html`), `analyze_with` keeps
//! the states of its runs and calls `invariants::of_runs` on them, so the report's line invariants
//! (`Outcome::invariants`, JSON `invariants`) come from the fixpoints its verdicts come from,
//! without a second analysis; it then makes the protected run even without an assertion (which
//! changes no verdict: it only ever adds proofs, and without an assertion that may run there is
//! none to add).

use super::compose::{self, Composition};
use super::runs::{detached_roots, runs, Runs};
use super::{Analysis, AssertResult, AssertVerdict, NamedRange, Note, NoteKind, Reason, Stats};
use crate::error::{memory_budget, InputError};
use crate::facts::Facts;
use crate::ir::{AssertId, AssertKind, CInt, Callee, FuncId, InstKind, Program};
use crate::memory::MemoryModel;
use crate::threads::Origin;
use std::collections::BTreeSet;
use watts_domains::NumDomain;

/// Runs the analysis of `config`'s mode in domain `D` and computes the verdicts.
pub fn analyze_with<D: NumDomain>(
    program: &Program,
    config: &crate::config::Config,
) -> Result<Analysis, InputError> {
    use crate::config::Mode;
    let main = program.main.ok_or(InputError::NoEntryPoint)?;
    let memory = MemoryModel::build(program);
    let facts = Facts::new(program, &memory);
    let detached = detached_roots(&facts);
    // Without an assertion that may run, the verdicts are all "unreachable" in every mode
    // (no mode's thread CFGs hold a function that no call or creation reaches) and the notes
    // remain, which the flow-insensitive fixpoint finds as well (it reaches at least every
    // node a flow-sensitive mode reaches): the combinations and the lock-protection run would
    // be work for nothing.
    let checks = config.checks.asserts && assertion_may_run(&facts, main, &detached);
    let mode = if checks {
        config.mode
    } else {
        Mode::FlowInsensitive
    };
    // `--html` shows the line invariants of these very runs: they keep their states, and the
    // protected run is made even without an assertion (it only adds precision to the ranges;
    // no verdict of a program without a reachable assertion can change).
    let how = Composition {
        keep_states: config.invariants,
        trace: config.trace,
        ..Composition::of(mode, config.max_combinations, config.jobs)
    };
    let all = runs::<D>(&facts, main, &detached, how, checks || config.invariants);
    let invariants =
        (config.invariants).then(|| super::invariants::of_runs(&facts, &all, mode, config));
    let Runs {
        plain: fix,
        guarded,
        degraded,
    } = all;
    let mut verdicts = Vec::with_capacity(program.asserts.len());
    for i in 0..program.asserts.len() {
        let plain = verdict_of(program, &fix, i);
        let better = guarded
            .as_ref()
            .map(|g| verdict_of(program, g, i))
            .filter(|v| rank(&v.verdict) > rank(&plain.verdict));
        verdicts.push(match better {
            Some(mut v) => {
                match &mut v.verdict {
                    AssertVerdict::Proved { lock_protection }
                    | AssertVerdict::Unreachable { lock_protection } => *lock_protection = true,
                    AssertVerdict::MayFail(_) => {}
                }
                v
            }
            None => plain,
        });
    }
    let races = config
        .checks
        .races
        .then(|| super::races::find(&facts, &fix));
    let mut notes = notes(program, &fix);
    if let Some(check) = races
        .as_ref()
        .filter(|c| !c.callbacks_in_threads.is_empty())
    {
        notes.push(Note::new(NoteKind::CallbacksInProgramThreads(
            check.callbacks_in_threads.clone(),
        )));
    }
    if let Some(check) = races.as_ref().filter(|c| !c.assumed.is_empty()) {
        notes.push(Note::new(NoteKind::RacesAssume(
            check.assumed.iter().cloned().collect(),
        )));
    }
    // A fixpoint that stopped early found less than there is: its notes too, so say it even
    // when no assertion shows it.
    let stopped = if fix.over_memory {
        Some(NoteKind::StoppedOverMemory {
            budget: memory_budget(),
        })
    } else if fix.gave_up {
        Some(NoteKind::StoppedAfterRounds { rounds: fix.rounds })
    } else {
        None
    };
    if let Some(kind) = stopped {
        notes.insert(0, Note::new(kind));
    }
    if degraded {
        notes.insert(
            0,
            Note::new(NoteKind::Degraded {
                mode: config.mode,
                budget: memory_budget(),
            }),
        );
    }
    let stats = Stats {
        threads: fix
            .threads
            .iter()
            .filter(|t| t.origin != Origin::Detached)
            .count(),
        iterations: fix.rounds,
        combinations: fix.combos.analysed,
        infeasible: fix.combos.pruned,
        datalog_queries: fix.combos.queries,
        enumerated: fix.combos.enumerated,
        budget_fallbacks: fix.combos.fallbacks,
        datalog_ms: fix.combos.datalog_ms,
    };
    Ok(Analysis {
        verdicts,
        notes,
        stats,
        races,
        invariants,
    })
}

/// How strong a verdict is: unreachable > proved > may fail.
fn rank(v: &AssertVerdict) -> u8 {
    match v {
        AssertVerdict::Unreachable { .. } => 2,
        AssertVerdict::Proved { .. } => 1,
        AssertVerdict::MayFail(_) => 0,
    }
}

/// The verdict of assertion `i` from one fixpoint.
fn verdict_of<D>(program: &Program, fix: &compose::Fixpoint<D>, i: usize) -> AssertResult {
    let info = &program.asserts[i];
    let obs = &fix.asserts[i];
    let names = |set: &BTreeSet<usize>| -> Vec<String> {
        set.iter().map(|t| fix.threads[*t].name.clone()).collect()
    };
    let reached = names(&obs.reached_in);
    let verdict = if fix.over_memory {
        AssertVerdict::MayFail(Reason::OverMemory {
            budget: memory_budget(),
        })
    } else if fix.gave_up {
        AssertVerdict::MayFail(Reason::StoppedEarly)
    } else if !obs.fails_in.is_empty() {
        AssertVerdict::MayFail(Reason::CannotExclude {
            reach_error: info.kind == AssertKind::ReachError,
            only_in: if obs.fails_in == obs.reached_in {
                Vec::new()
            } else {
                names(&obs.fails_in)
            },
        })
    } else if reached.is_empty() {
        AssertVerdict::Unreachable {
            lock_protection: false,
        }
    } else {
        AssertVerdict::Proved {
            lock_protection: false,
        }
    };
    let may_fail = verdict.may_fail();
    let values = if may_fail {
        let func = &program.funcs[info.func.index()];
        (obs.values.iter())
            .map(|(name, range)| {
                let var = info.cond_vars.iter().find(|c| c.name == *name);
                NamedRange {
                    name: name.clone(),
                    range: *range,
                    ty: var.and_then(|c| {
                        let ty = func.vars.get(c.var.index())?.c_int()?;
                        Some(CInt::new(ty.bits, c.sign))
                    }),
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    AssertResult {
        id: AssertId(i as u32),
        verdict,
        values,
        threads: reached,
        explanation: if may_fail {
            obs.explanation.clone().unwrap_or_default()
        } else {
            Vec::new()
        },
        pruned: obs.reached_in.iter().map(|t| fix.results[*t].pruned).sum(),
    }
}

/// Whether some assertion lies in a function that may run: one that calls and thread
/// creations reach from `main` or from a function analysed on its own (`detached`, which holds
/// every target of a call through a pointer and every function unknown code may call).
///
/// Soundness (of skipping the flow-sensitive modes when false): a thread CFG holds only the
/// functions its entry reaches by calls; entries are `main`, detached roots, functions that a
/// CFG calls without inlining them, and created entries, all followed here. A creation whose
/// entry may be unknown or undefined starts the stand-in for unknown code, so every function
/// counts then.
fn assertion_may_run(facts: &Facts<'_>, main: FuncId, detached: &[FuncId]) -> bool {
    let (program, memory) = (facts.program, facts.memory);
    if program.asserts.is_empty() {
        return false;
    }
    let resolved = facts.resolution();
    let mut seen = vec![false; program.funcs.len()];
    let mut stack: Vec<FuncId> = std::iter::once(main)
        .chain(detached.iter().copied())
        .collect();
    while let Some(f) = stack.pop() {
        if std::mem::replace(&mut seen[f.index()], true) {
            continue;
        }
        for (bi, b) in program.funcs[f.index()].blocks.iter().enumerate() {
            for (ii, inst) in b.insts.iter().enumerate() {
                match &inst.kind {
                    InstKind::Call {
                        callee: Callee::Direct(g),
                        ..
                    } if program.funcs[g.index()].is_defined => stack.push(*g),
                    // A call through a pointer to one function, a once routine run there.
                    InstKind::Call { .. } => {
                        stack.extend(resolved.callee(f, crate::ir::BlockId(bi as u32), ii as u32))
                    }
                    InstKind::ThreadCreate { entry, .. } => {
                        let (entries, unknown) = memory.pts.callees(program, f, entry);
                        if unknown || entries.iter().any(|g| !program.funcs[g.index()].is_defined) {
                            return true;
                        }
                        stack.extend(entries);
                    }
                    _ => {}
                }
            }
        }
    }
    program.asserts.iter().any(|a| seen[a.func.index()])
}

fn notes<D>(program: &Program, fix: &compose::Fixpoint<D>) -> Vec<Note> {
    let mut notes = Vec::new();
    for f in &fix.unknown_calls {
        notes.push(Note::new(NoteKind::Undefined(*f)));
    }
    for t in &fix.threads {
        if t.origin == Origin::Detached {
            notes.push(Note {
                span: program.funcs[t.entry.index()].span,
                kind: NoteKind::NotInlined(t.entry),
            });
        }
    }
    if let Some(events) = fix.combos.oracle_too_big {
        notes.push(Note::new(NoteKind::OracleTooBig {
            events,
            limit: crate::analysis::sync::feasibility::MAX_ORACLE_EVENTS,
        }));
    }
    for name in &fix.combos.fallback_threads {
        notes.push(Note::new(NoteKind::CombinationsJoined {
            thread: name.clone(),
        }));
    }
    let mut havoc = BTreeSet::new();
    for f in &program.funcs {
        for b in &f.blocks {
            for inst in &b.insts {
                if let InstKind::Havoc { reason, .. } = &inst.kind {
                    if havoc.insert(reason.clone()) {
                        notes.push(Note {
                            span: inst.span,
                            kind: NoteKind::Havoc(reason.clone()),
                        });
                    }
                }
            }
        }
    }
    notes
}
