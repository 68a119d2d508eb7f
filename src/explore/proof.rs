//! Proofs by exploration: when every execution of a small program can be run, the assertions
//! none of them fails are proved.
//!
//! The interpreter runs in its exact mode ([`InterpOptions::exact`]): no loop bound (a state
//! does not count loop iterations, so a spin loop comes back to a state already explored),
//! `malloc` may fail, and wherever `confirm` would restrict the program (a read lock taken
//! exclusively, a library result taken as success, an input from a few candidates, argv, an
//! unknown function) the execution is abandoned instead. The stateful depth-first search
//! ([`Strategy::Cached`]) then visits every reachable state; it stops at the first execution
//! that was abandoned or cut (a thread whose local code runs past the step budget), since a
//! proof needs none.
//!
//! Soundness: every execution of the program (sequential consistency, C as clang lowers it)
//! is a path of the interpreter's states from the initial one: threads interleave at every
//! access to memory another thread may reach, and local code between two of them commutes
//! with every other thread. Equal states have equal futures, so a state explored once need
//! not be explored again; states are remembered by 128-bit fingerprints, so a collision could
//! hide a state, with a probability below 2^-80 for the two million states the budget allows.
//! Code the interpreter does not run is excluded before the search: a program with exit-time
//! functions (destructors, which the C runtime runs), or a driver harness, is not explored,
//! and a function handed to unknown code ends the execution (unknown calls are abandoned).
//!
//! `--confirm` (and `--svcomp`, which implies it) first runs `prove` for up to 30% of its budget.
//! In the exact mode a state holds no loop bound and no step count, so a loop that comes back to a
//! state is a cycle of the state graph; a step's local code that comes back to a state of the
//! memory and its thread (Brent's cycle detection from its 1000th jump) leaves the thread
//! `At::Spins`, never scheduled again; `malloc`, `calloc` and `realloc` are visible, with a second
//! alternative that fails; and every choice `confirm` restricts ends the execution as unsupported:
//! a read lock, a relock or trylock by the owner, `pthread_mutexattr_settype`, a timed wait, a
//! library result taken as success that the program reads (`Interp::used`), `pthread_self`'s value,
//! an input that is not a boolean, `main`'s argc or argv, any unknown function, output given a
//! pointer that is not a constant; a synchronisation function makes its object's bytes unknown. The
//! search stops at the first gap (`Budget::stop_at_first_gap`). A program with a driver harness or
//! exit-time functions (`harness::startup::has_exit_time_functions`) is not explored. When the
//! search completed, every target assertion no execution failed is `proved` (by `watts::run`) and
//! only the others go on to the usual strategies; otherwise a note says what stopped it
//! (`Proof::gap`).
//!
//! Invariant: a proof claims nothing unless every state reachable under sequential consistency was
//! explored (up to 128-bit fingerprint collisions) with nothing restricted; its violations are not
//! witnesses (the exact mode's alternatives differ from replay's), so the usual strategies find
//! those.

use std::collections::BTreeSet;
use std::time::Instant;

use super::search::{self, Budget, Strategy};
use super::{Interp, InterpOptions};
use crate::ir::{AssertId, Program};

use crate::limits::{
    PROOF_MAX_DEPTH as MAX_DEPTH, PROOF_MAX_THREADS as MAX_THREADS, PROOF_STEP_LIMIT as STEP_LIMIT,
};

/// What a proof by exploration found.
#[derive(Clone, Debug, Default)]
pub struct Proof {
    /// The targets no execution fails (empty unless `complete`).
    pub proved: BTreeSet<AssertId>,
    /// The assertions some execution the search ran fails (whether or not it completed). Not
    /// witnesses (the exact mode's schedules do not replay in `confirm`'s interpreter), but
    /// real failures: a check for the analysis.
    pub failed: BTreeSet<AssertId>,
    /// Every execution was run: the search was neither stopped nor cut, and abandoned none.
    pub complete: bool,
    /// Executions run (or ended at a state explored before).
    pub executions: u64,
    /// Why the search could not run every execution, when it could not.
    pub gap: Option<Gap>,
}

/// Why a proof by exploration could not run every execution (the report words it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gap {
    /// A driver harness: its entries run on inputs of any value.
    Harness,
    /// Destructors run at exit, which the interpreter does not run.
    ExitTimeFunctions,
    /// The program cannot be executed at all (the interpreter's reason).
    CannotExecute(String),
    /// An execution was abandoned, for this cause.
    Abandoned(super::Abandon),
    /// A thread ran more than `step_limit` instructions without touching shared memory.
    LongLocalRun { step_limit: u64 },
    /// Its share of the `--confirm` budget ran out.
    OutOfTime,
    /// The search reached its state budget, an execution of `max_depth` steps, or one of
    /// more than `max_threads` threads.
    TooLarge {
        max_depth: usize,
        max_threads: usize,
    },
}

/// Explores every execution of `program` until `deadline`, and returns the assertions of
/// `targets` that none fails, if it could run them all.
pub fn prove(program: &Program, targets: &BTreeSet<AssertId>, deadline: Instant) -> Proof {
    if let Some(why) = not_closed(program) {
        return Proof {
            gap: Some(why),
            ..Proof::default()
        };
    }
    let options = InterpOptions {
        bound: u32::MAX,
        max_steps: STEP_LIMIT,
        exact: true,
        ..InterpOptions::default()
    };
    let interp = match Interp::new(program, options) {
        Ok(i) => i,
        Err(why) => {
            return Proof {
                gap: Some(Gap::CannotExecute(why)),
                ..Proof::default()
            }
        }
    };
    let budget = Budget {
        deadline: Some(deadline),
        stop_at_first_gap: true,
        max_depth: MAX_DEPTH,
        max_threads: MAX_THREADS,
        ..Budget::default()
    };
    let out = search::explore(&interp, Strategy::Cached, budget, None);
    // The search stops at the first abandoned execution, so there is at most one cause.
    let gap = if let Some(why) = out.unsupported.iter().next() {
        Some(Gap::Abandoned(why.clone()))
    } else if out.cut {
        Some(Gap::LongLocalRun {
            step_limit: STEP_LIMIT,
        })
    } else if !out.complete {
        Some(if Instant::now() >= deadline {
            Gap::OutOfTime
        } else {
            Gap::TooLarge {
                max_depth: MAX_DEPTH,
                max_threads: MAX_THREADS,
            }
        })
    } else {
        None
    };
    let complete = gap.is_none();
    Proof {
        proved: if complete {
            (targets.iter())
                .filter(|a| !out.violations.contains_key(a))
                .copied()
                .collect()
        } else {
            BTreeSet::new()
        },
        complete,
        failed: out.violations.keys().copied().collect(),
        executions: out.executions,
        gap,
    }
}

/// Why code may run that the interpreter does not run from `main`, if it may.
fn not_closed(program: &Program) -> Option<Gap> {
    if !program.harness_entries.is_empty() {
        return Some(Gap::Harness);
    }
    if program.has_exit_time_functions() {
        return Some(Gap::ExitTimeFunctions);
    }
    None
}
