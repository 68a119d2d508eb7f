//! The interpreter's extension points (Miri's `Machine` hooks): the events an observer of an
//! execution sees, each at the one place the interpreter reaches it. The concolic shadow
//! (`shadow::Concolic`) is the observer; [`NoHooks`] does nothing.
//!
//! Invariants:
//! - An observer never changes the execution: it writes only its own part of the state
//!   (`State::shadow`), which is not part of the state's meaning (it compares equal and hashes
//!   to nothing), so the exhaustive searches see the same states with or without it.
//! - The observer of a state is the one its data belongs to ([`Interp::hooks`]): a state that
//!   carries no shadow is observed by [`NoHooks`], so a search pays one test of an `Option` and
//!   a call of an empty function per event.
//! - Each hook says whether the concrete state it sees is from before or after the event; the
//!   interpreter calls it at exactly that point and nowhere else.

use super::{Interp, State};
use crate::explore::{StepKind, Tid};
use crate::ir::{BlockId, FuncId, Inst, Operand, VarId};

/// What an observer of an execution is told, in the order it happens.
pub(super) trait ExecHooks: Sync {
    /// A step of thread `t` begins (before its pending operation runs).
    fn step_begins(&self, x: &Interp<'_>, s: &mut State, t: Tid);

    /// The step that just ran ended the process (`exit`, `main` returning).
    fn process_exited(&self, x: &Interp<'_>, s: &mut State);

    /// Thread `t` is about to execute `inst` (nothing of it has run yet); `visible` when it is
    /// the visible operation of a step.
    fn before_inst(&self, x: &Interp<'_>, s: &mut State, t: Tid, inst: &Inst, visible: bool);

    /// Thread `t` executed `inst`, which is not a call, and is still at it (its results are
    /// written, its position not yet advanced).
    fn after_inst(&self, x: &Interp<'_>, s: &mut State, t: Tid, inst: &Inst, visible: bool);

    /// Thread `t` is about to execute the terminator of its block.
    fn before_term(&self, x: &Interp<'_>, s: &mut State, t: Tid);

    /// Thread `t` goes along the edge from its block to `target` (before the phis of `target`
    /// are assigned and before its frame moves).
    fn edge(&self, x: &Interp<'_>, s: &mut State, t: Tid, target: BlockId);

    /// A frame of the defined function `f` was pushed for thread `t`, called with `args` (the
    /// caller's operands).
    fn frame_pushed(&self, x: &Interp<'_>, s: &mut State, t: Tid, f: FuncId, args: &[Operand]);

    /// Thread `t`'s top frame is about to return `value` to its caller's `into` (the result
    /// variable of the caller's call, when there is a caller and it takes the result); the
    /// frame is popped next.
    fn returns(
        &self,
        x: &Interp<'_>,
        s: &mut State,
        t: Tid,
        value: Option<&Operand>,
        into: Option<VarId>,
    );

    /// Thread `t`'s top frame was popped (a return, or its end unwinding it).
    fn frame_popped(&self, x: &Interp<'_>, s: &mut State, t: Tid);

    /// Thread `t` called the declared function `f` with `args`, which ran as its row of the
    /// library table says; its result is in `dst` (`None` for a condition wait, whose result
    /// comes at its relock), and is the thread's next input when `input`. `kind` is what the
    /// step shows, when visible.
    #[allow(clippy::too_many_arguments)]
    fn library_call(
        &self,
        x: &Interp<'_>,
        s: &mut State,
        t: Tid,
        f: FuncId,
        dst: Option<VarId>,
        args: &[Operand],
        kind: Option<&StepKind>,
        input: bool,
    );

    /// Thread `t` took the mutex (`alloc`, `off`) again at the end of its condition wait, the
    /// wait's result into `dst`.
    fn relocked(
        &self,
        x: &Interp<'_>,
        s: &mut State,
        t: Tid,
        dst: Option<VarId>,
        alloc: u32,
        off: i64,
    );
}

/// The observer of an execution nobody observes: every hook does nothing.
pub(super) struct NoHooks;

impl ExecHooks for NoHooks {
    fn step_begins(&self, _: &Interp<'_>, _: &mut State, _: Tid) {}
    fn process_exited(&self, _: &Interp<'_>, _: &mut State) {}
    fn before_inst(&self, _: &Interp<'_>, _: &mut State, _: Tid, _: &Inst, _: bool) {}
    fn after_inst(&self, _: &Interp<'_>, _: &mut State, _: Tid, _: &Inst, _: bool) {}
    fn before_term(&self, _: &Interp<'_>, _: &mut State, _: Tid) {}
    fn edge(&self, _: &Interp<'_>, _: &mut State, _: Tid, _: BlockId) {}
    fn frame_pushed(&self, _: &Interp<'_>, _: &mut State, _: Tid, _: FuncId, _: &[Operand]) {}
    fn returns(
        &self,
        _: &Interp<'_>,
        _: &mut State,
        _: Tid,
        _: Option<&Operand>,
        _: Option<VarId>,
    ) {
    }
    fn frame_popped(&self, _: &Interp<'_>, _: &mut State, _: Tid) {}
    fn library_call(
        &self,
        _: &Interp<'_>,
        _: &mut State,
        _: Tid,
        _: FuncId,
        _: Option<VarId>,
        _: &[Operand],
        _: Option<&StepKind>,
        _: bool,
    ) {
    }
    fn relocked(&self, _: &Interp<'_>, _: &mut State, _: Tid, _: Option<VarId>, _: u32, _: i64) {}
}
