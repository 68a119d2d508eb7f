//! Replay: a recorded schedule run again from the initial state, through the interpreter
//! `confirm` runs, to the failure (or the race) it claims; what `watts replay` and the check
//! of every witness before it is reported do.
//!
//! Invariant: a witness counts as replayed only when its schedule runs, step by step, from the
//! initial state to the same failure (or to a state where the race's two accesses are both
//! next); the results are data ([`Replayed`], [`Misfit`]), worded by `report`.

use super::found::Misfit;
use super::search::{self, Violation};
use super::{ExecStatus, Interp, InterpOptions, RaceMemory, RaceTarget, StepKind, System, Tid};
use crate::ir::{AssertId, Program};
use crate::witness::Witness;
use std::collections::BTreeMap;

/// How a replayed schedule ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// Assertion `id` fails again after `steps` steps.
    Fails { id: AssertId, steps: usize },
    /// The execution fails `other` instead of `id`.
    FailsOther { id: AssertId, other: AssertId },
    /// The execution does not fail `id`: how it ended.
    Holds { id: AssertId, end: ExecStatus },
    /// The race happens again: after `steps` steps, both accesses are next.
    Races { steps: usize },
    /// The two last steps of a race witness are not accesses of the source.
    NotAccesses,
    /// The two last steps are not conflicting accesses that are both next.
    NoRace,
}

impl Replayed {
    /// The exit status of `watts replay`: 1 when the failure (or the race) happens again, 0
    /// when it does not.
    pub fn exit_code(&self) -> u8 {
        match self {
            Replayed::Fails { .. } | Replayed::Races { .. } => 1,
            Replayed::FailsOther { .. }
            | Replayed::Holds { .. }
            | Replayed::NotAccesses
            | Replayed::NoRace => 0,
        }
    }
}

/// Replays violation `v` on `program` (its schedule, bound and input values):
/// [`replay_with_inputs`].
pub fn replay(program: &Program, v: &Violation) -> Result<Replayed, Misfit> {
    let (choices, inputs) = v.schedule();
    replay_with_inputs(
        program,
        v.bound,
        v.thread_loops,
        v.assertion,
        &choices,
        inputs,
    )
}

/// Replays `choices` on `program` with loop bound `bound` (and loops that create threads
/// unbounded, with `thread_loops`) and the forced `inputs` ([`Interp::with_inputs`]; none:
/// the alternatives choose): whether assertion `id` fails at the end; `Err` when the schedule
/// does not fit the program.
pub fn replay_with_inputs(
    program: &Program,
    bound: u32,
    thread_loops: bool,
    id: AssertId,
    choices: &[(Tid, usize)],
    inputs: BTreeMap<(Tid, u32), i128>,
) -> Result<Replayed, Misfit> {
    let interp = replay_interp(program, bound, thread_loops, inputs)?;
    let (end, steps) = search::replay(&interp, choices)?;
    Ok(match interp.status(&end) {
        ExecStatus::Violated(v) if v == id => Replayed::Fails {
            id,
            steps: steps.len(),
        },
        ExecStatus::Violated(other) => Replayed::FailsOther { id, other },
        end => Replayed::Holds { id, end },
    })
}

/// The interpreter that replays a witness: its loop bound, the sampled runs' way with loops
/// that create threads when it was found by one (`thread_loops`; the step budget only cuts, so
/// a larger one replays every witness the same way), and its forced input values.
pub fn replay_interp(
    program: &Program,
    bound: u32,
    thread_loops: bool,
    inputs: BTreeMap<(Tid, u32), i128>,
) -> Result<Interp<'_>, Misfit> {
    let interp = Interp::new(
        program,
        InterpOptions {
            bound,
            ..InterpOptions::default()
        },
    )
    .map_err(Misfit::CannotExecute)?;
    let interp = if thread_loops {
        interp.sampled(bound)
    } else {
        interp
    };
    Ok(if inputs.is_empty() {
        interp
    } else {
        interp.with_inputs(std::sync::Arc::new(inputs))
    })
}

/// The witness of a confirmed race ([`RaceTarget`]): the execution of `v`, which ends where
/// two threads are about to run the race's accesses, followed by those two accesses. `None`
/// when `v` does not replay to such a state (which would be a bug).
pub fn race_witness(program: &Program, races: &[RaceTarget], v: &Violation) -> Option<Witness> {
    let (choices, inputs) = v.schedule();
    let bound = if v.bound == 0 {
        InterpOptions::default().bound
    } else {
        v.bound
    };
    let plain = replay_interp(program, bound, v.thread_loops, inputs).ok()?;
    let (state, steps) = search::replay(&plain, &choices).ok()?;
    let (id, a, b) = plain.with_races(races.to_vec()).race_at(&state)?;
    if id != v.assertion {
        return None;
    }
    // Both accesses, each as it runs from this state; the read first, so that the values
    // shown are those of one execution (the read, then the write, which reads nothing the
    // other thread writes; or two writes).
    let run = |t: Tid| (t, plain.step(&mut state.clone(), t, 0));
    let (x, y) = (run(a), run(b));
    let ran = if matches!(y.1.kind, StepKind::Read { .. }) {
        [y, x]
    } else {
        [x, y]
    };
    let mut choices = choices;
    let mut steps = steps;
    for (t, step) in ran {
        choices.push((t, 0));
        steps.push(step);
    }
    Some(Witness {
        assertion: v.assertion,
        choices,
        steps,
        threads: v.threads.clone(),
        bound: v.bound,
        thread_loops: v.thread_loops,
    })
}

/// Replays a race witness: `choices` up to its last two steps, after which the threads of
/// those two steps must be about to run conflicting accesses of one object
/// ([`Replayed::Races`]); `Err` when the schedule does not fit the program.
pub fn replay_race(
    program: &Program,
    bound: u32,
    thread_loops: bool,
    choices: &[(Tid, usize)],
    inputs: BTreeMap<(Tid, u32), i128>,
) -> Result<Replayed, Misfit> {
    let [prefix @ .., (a, _), (b, _)] = choices else {
        return Err(Misfit::RaceTooShort);
    };
    let plain = replay_interp(program, bound, thread_loops, inputs)?;
    let (state, steps) = search::replay(&plain, prefix)?;
    let spans = [*a, *b].map(|t| plain.next_span(&state, t));
    let [Some(x), Some(y)] = spans else {
        return Ok(Replayed::NotAccesses);
    };
    let target = RaceTarget {
        id: AssertId::from(program.asserts.len()),
        spans: [x, y].into_iter().collect(),
        memory: RaceMemory::Any,
    };
    Ok(match plain.with_races(vec![target]).race_at(&state) {
        Some((_, p, q)) if [p, q] == [*a.min(b), *a.max(b)] => {
            Replayed::Races { steps: steps.len() }
        }
        _ => Replayed::NoRace,
    })
}
