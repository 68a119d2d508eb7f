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
use super::{AssertVerdict, NamedRange, Note, Outcome, Stats, Status};
use crate::error::InputError;
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
) -> Result<Outcome, InputError> {
    use crate::config::Mode;
    let main = program.main.ok_or(InputError::NoEntryPoint)?;
    let memory = MemoryModel::build(program);
    let facts = Facts::new(program, &memory);
    let detached = detached_roots(program, &memory);
    // Without an assertion that may run, the verdicts are all "unreachable" in every mode
    // (no mode's thread CFGs hold a function that no call or creation reaches) and the notes
    // remain, which the flow-insensitive fixpoint finds as well (it reaches at least every
    // node a flow-sensitive mode reaches): the combinations and the lock-protection run would
    // be work for nothing.
    let checks = config.checks.asserts && assertion_may_run(program, &memory, main, &detached);
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
            .filter(|v| rank(v.status) > rank(plain.status));
        verdicts.push(match better {
            Some(mut v) => {
                v.reason.push_str(" (with lock protection)");
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
    if let Some(check) = races.as_ref().filter(|c| !c.assumed.is_empty()) {
        notes.push(assumed_note(&check.assumed));
    }
    // A fixpoint that stopped early found less than there is: its notes too, so say it even
    // when no assertion shows it.
    let stopped = if fix.over_memory {
        Some(format!(
            "the analysis went past its memory budget ({}, --max-memory) and stopped before its \
             fixpoint: every assertion is reported as may fail, and these notes may be \
             incomplete",
            budget_text()
        ))
    } else if fix.gave_up {
        Some(format!(
            "the analysis stopped after {} rounds without reaching its fixpoint: every \
             assertion is reported as may fail, and these notes may be incomplete",
            fix.rounds
        ))
    } else {
        None
    };
    if let Some(message) = stopped {
        notes.insert(
            0,
            Note {
                span: None,
                message,
            },
        );
    }
    if degraded {
        notes.insert(
            0,
            Note {
                span: None,
                message: format!(
                    "the {} mode went past the memory budget ({}, --max-memory): the verdicts are \
                     those of the flow-insensitive mode, which is coarser and needs less memory",
                    config.mode.name(),
                    budget_text()
                ),
            },
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
        executions: 0,
    };
    Ok(Outcome {
        verdicts,
        notes,
        stats,
        races,
        invariants,
    })
}

/// The fixpoints a run computes: the mode's, and the one with lock protection.
pub(crate) struct Runs<D> {
    /// The run of the mode (of the flow-insensitive mode when `degraded`).
    pub plain: compose::Fixpoint<D>,
    /// The run with lock protection, when some cell is protectable, it was asked for, and the
    /// plain run stayed within the memory budget.
    pub guarded: Option<compose::Fixpoint<D>>,
    /// Whether the mode went past the memory budget, so that `plain` is the flow-insensitive
    /// run.
    pub degraded: bool,
}

/// Runs the fixpoint of `how` (degraded to the flow-insensitive mode past the memory budget)
/// and, when some cell is protectable and `protect`, the same with lock protection.
///
/// Lock protection hands protected cells over as joined values at lock operations, which is
/// more precise for values guarded by locks and less precise than the store-by-store
/// combinations elsewhere: both runs are sound, so each assertion takes the stronger verdict
/// (and `watts invariants` the meet of their ranges).
pub(crate) fn runs<D: NumDomain>(
    facts: &Facts<'_>,
    main: FuncId,
    detached: &[FuncId],
    how: Composition,
    protect: bool,
) -> Runs<D> {
    let mut how = how;
    let mut fix = compose::run::<D>(facts, main, detached, how);
    let mut degraded = false;
    if fix.over_memory && how.flow_sensitive() {
        // Degrades soundly: the flow-insensitive fixpoint over-approximates every mode and
        // needs far less memory (no combinations, no store events).
        drop(fix);
        how.mode = crate::config::Mode::FlowInsensitive;
        fix = compose::run::<D>(facts, main, detached, how);
        degraded = true;
    }
    let guarded = (fix.protectable && protect && !fix.over_memory).then(|| {
        let how = Composition {
            protection: true,
            ..how
        };
        compose::run::<D>(facts, main, detached, how)
    });
    Runs {
        plain: fix,
        guarded,
        degraded,
    }
}

use crate::error::budget_text;

/// The note of the race check's assumption about functions without a definition.
fn assumed_note(assumed: &BTreeSet<String>) -> Note {
    let mut names: Vec<String> = assumed.iter().take(10).map(|n| format!("`{n}`")).collect();
    if assumed.len() > 10 {
        names.push(format!("and {} more", assumed.len() - 10));
    }
    let (what, access, its, keeps) = if assumed.len() == 1 {
        ("a function", "accesses", "its", "keeps")
    } else {
        ("functions", "access", "their", "keep")
    };
    Note {
        span: None,
        message: format!(
            "the race check assumes that {what} without a definition ({}) {access} only what \
             {its} arguments point to, during the call, and {keeps} no pointer",
            names.join(", ")
        ),
    }
}

/// How strong a verdict is: unreachable > proved > may fail.
fn rank(s: Status) -> u8 {
    match s {
        Status::Unreachable => 2,
        Status::Proved => 1,
        _ => 0,
    }
}

/// The verdict of assertion `i` from one fixpoint.
fn verdict_of<D>(program: &Program, fix: &compose::Fixpoint<D>, i: usize) -> AssertVerdict {
    let info = &program.asserts[i];
    let obs = &fix.asserts[i];
    let names = |set: &BTreeSet<usize>| -> Vec<String> {
        set.iter().map(|t| fix.threads[*t].name.clone()).collect()
    };
    let reached = names(&obs.reached_in);
    let (status, reason) = if fix.over_memory {
        (
            Status::MayFail,
            format!(
                "the analysis went past its memory budget ({}, --max-memory) before its fixpoint",
                budget_text()
            ),
        )
    } else if fix.gave_up {
        (
            Status::MayFail,
            "the analysis stopped before its fixpoint (round budget exhausted)".to_string(),
        )
    } else if !obs.fails_in.is_empty() {
        let why = match info.kind {
            AssertKind::ReachError => "the analysis cannot exclude that the call is reached",
            _ => "the analysis cannot exclude that the condition is false",
        };
        let reason = if obs.fails_in == obs.reached_in {
            why.to_string()
        } else {
            format!("{why} in {}", list(&names(&obs.fails_in)))
        };
        (Status::MayFail, reason)
    } else if reached.is_empty() {
        (
            Status::Unreachable,
            "no analysed execution reaches it".to_string(),
        )
    } else {
        (
            Status::Proved,
            format!("the condition holds in every state of {}", list(&reached)),
        )
    };
    let values = if status == Status::MayFail {
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
    AssertVerdict {
        id: AssertId(i as u32),
        status,
        reason,
        values,
        threads: reached,
        explanation: if status == Status::MayFail {
            obs.explanation.clone().unwrap_or_default()
        } else {
            Vec::new()
        },
        pruned: obs.reached_in.iter().map(|t| fix.results[*t].pruned).sum(),
        witness: None,
        found_by: None,
    }
}

fn list(names: &[String]) -> String {
    match names.len() {
        0 => "no thread".to_string(),
        1 => format!("thread {}", names[0]),
        _ => format!("threads {}", names.join(", ")),
    }
}

/// Defined functions that must be analysed on their own: targets of calls through pointers,
/// and functions whose address reached code the analysis cannot see (callbacks) other than the
/// harness's entries.
pub(crate) fn detached_roots(program: &Program, memory: &MemoryModel) -> Vec<FuncId> {
    let mut out = BTreeSet::new();
    for (fi, f) in program.funcs.iter().enumerate() {
        for b in &f.blocks {
            for inst in &b.insts {
                if let InstKind::Call {
                    callee: Callee::Indirect(op),
                    ..
                } = &inst.kind
                {
                    let (targets, _) = memory.pts.callees(program, FuncId(fi as u32), op);
                    out.extend(targets);
                }
            }
        }
    }
    // Harness contract: the environment (the kernel behind `register_chrdev`) runs an entry
    // only as the harness's threads, which already stand for those runs with their calling
    // context; a copy from an unknown state stays only where the program's own code calls it
    // through a pointer (above).
    out.extend(
        (memory.pts.exposed_funcs.iter())
            .filter(|f| program.harness_entries.binary_search(f).is_err()),
    );
    out.into_iter()
        .filter(|f| program.funcs[f.index()].is_defined)
        .collect()
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
fn assertion_may_run(
    program: &Program,
    memory: &MemoryModel,
    main: FuncId,
    detached: &[FuncId],
) -> bool {
    if program.asserts.is_empty() {
        return false;
    }
    let mut seen = vec![false; program.funcs.len()];
    let mut stack: Vec<FuncId> = std::iter::once(main)
        .chain(detached.iter().copied())
        .collect();
    while let Some(f) = stack.pop() {
        if std::mem::replace(&mut seen[f.index()], true) {
            continue;
        }
        for inst in program.funcs[f.index()]
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
        {
            match &inst.kind {
                InstKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } if program.funcs[g.index()].is_defined => stack.push(*g),
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
    program.asserts.iter().any(|a| seen[a.func.index()])
}

fn notes<D>(program: &Program, fix: &compose::Fixpoint<D>) -> Vec<Note> {
    let mut notes = Vec::new();
    for f in &fix.unknown_calls {
        let func = &program.funcs[f.index()];
        notes.push(Note {
            span: None,
            message: format!(
                "`{}` has no definition in the analysed program: a call may change any memory \\
                 it can reach (every non-static global, and what its arguments point to) and \\
                 return any value",
                func.name
            ),
        });
    }
    for t in &fix.threads {
        if t.origin == Origin::Detached {
            notes.push(Note {
                span: program.funcs[t.entry.index()].span,
                message: format!(
                    "`{}` is not inlined (recursion, a call through a pointer, or the size \\
                     budget): it is analysed once from an unknown state, and a call to it may \\
                     change any memory",
                    program.funcs[t.entry.index()].name
                ),
            });
        }
    }
    if let Some(events) = fix.combos.oracle_too_big {
        notes.push(Note {
            span: None,
            message: format!(
                "the threads perform {events} memory and thread operations, more than the \
                 happens-before rules are checked on ({}): no interference combination was \
                 ruled out by them (sound, less precise)",
                crate::analysis::sync::feasibility::MAX_ORACLE_EVENTS
            ),
        });
    }
    for name in &fix.combos.fallback_threads {
        notes.push(Note {
            span: None,
            message: format!(
                "thread {name} has more interference combinations than --max-combinations: \
                 its shared loads read the join of all stores instead (sound, less precise)"
            ),
        });
    }
    let mut havoc = BTreeSet::new();
    for f in &program.funcs {
        for b in &f.blocks {
            for inst in &b.insts {
                if let InstKind::Havoc { reason, .. } = &inst.kind {
                    if havoc.insert(reason.clone()) {
                        notes.push(Note {
                            span: inst.span,
                            message: format!("not modelled, any value assumed: {reason}"),
                        });
                    }
                }
            }
        }
    }
    notes
}
