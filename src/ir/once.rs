//! Code that runs at most once per execution of the program.
//!
//! A block runs at most once when it lies on no cycle of its function's blocks and its function
//! runs at most once: `main`, which nothing calls or names, or a function with exactly one
//! reference in the whole program, a direct call or a thread creation, in a block that runs at
//! most once itself. Any other mention of a function (its address in an operand, an
//! initialiser or an address the lowering does not track) lets unknown code or a pointer call
//! it any number of times. A program that calls a function that may return twice (`setjmp`)
//! may run any code again after a `longjmp`, so nothing in it is known to run once.
//!
//! The functions that may return twice are `RESUMES` (`setjmp`, `getcontext`, `swapcontext`,
//! `vfork`) and whatever `Program::returns_twice` lists. Used for heap objects allocated once
//! (`memory::heap`) and the one key of `harness::keys`.
//!
//! A `pthread_once` (or `call_once`) call that runs at most once and is the only code that names
//! its once-control object and its routine runs the routine there, during the call
//! ([`routines_at_their_call`]): `threads::resolve` inlines the routine at that call.

use super::{BlockId, Callee, FuncId, Function, InitValue, InstKind, Operand, Program, Terminator};

/// Where a function is mentioned.
#[derive(Clone, Debug, Default)]
struct References {
    /// Blocks (function, block) that call it directly or create a thread that runs it.
    sites: Vec<(FuncId, BlockId)>,
    /// Whether its address appears anywhere else.
    named: bool,
    /// Whether a thread creation names it as the entry.
    created: bool,
}

/// Per function: whether its address is used anywhere but as the callee of a direct call (an
/// operand, a thread's entry, an initialiser, an address the lowering does not track), so that
/// it may be called through a pointer.
pub fn address_taken(program: &Program) -> Vec<bool> {
    references(program)
        .into_iter()
        .map(|r| r.named || r.created)
        .collect()
}

/// Whether the program calls, or names, a function that may return twice (`setjmp`): then
/// control may come back to any point after such a call again, with the registers it had.
pub fn may_resume(program: &Program) -> bool {
    resumes(program, &references(program))
}

fn resumes(program: &Program, refs: &[References]) -> bool {
    let returns_twice = |(i, f): (usize, &Function)| {
        // A function called like one of them, defined or not (`Props::resumes`: a wrapper
        // such as `my_setjmp`), even when called through a pointer.
        program.is_returns_twice(FuncId::from(i)) || f.lib.is_some_and(|l| l.props().resumes)
    };
    (program.funcs.iter().enumerate())
        .filter(|x| returns_twice(*x))
        .any(|(i, _)| !refs[i].sites.is_empty() || refs[i].named)
}

/// Answers "does this block run at most once per execution?" for one program.
#[derive(Clone, Debug)]
pub struct RunsOnce {
    /// Per function: `Some(answer)` once decided.
    funcs: Vec<Option<bool>>,
}

impl RunsOnce {
    /// Decides, for every function of `program`, whether it runs at most once.
    pub fn compute(program: &Program) -> RunsOnce {
        let n = program.funcs.len();
        let mut out = RunsOnce {
            funcs: vec![Some(false); n],
        };
        let refs = references(program);
        if resumes(program, &refs) {
            return out;
        }
        let mut state = vec![Visit::New; n];
        for f in 0..n {
            decide(program, &refs, FuncId::from(f), &mut state);
        }
        out.funcs = (state.into_iter())
            .map(|v| Some(matches!(v, Visit::Done(true))))
            .collect();
        out
    }

    /// Whether block `b` of function `f` runs at most once in every execution.
    pub fn block(&self, program: &Program, f: FuncId, b: BlockId) -> bool {
        self.funcs.get(f.index()).copied().flatten() == Some(true)
            && !on_cycle(&program.funcs[f.index()], b.index())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    New,
    /// On the current chain of callers: a recursive reference, which may run it again.
    Active,
    Done(bool),
}

fn decide(program: &Program, refs: &[References], f: FuncId, state: &mut [Visit]) -> bool {
    match state[f.index()] {
        Visit::Done(x) => return x,
        Visit::Active => return false,
        Visit::New => {}
    }
    state[f.index()] = Visit::Active;
    let func = &program.funcs[f.index()];
    let r = &refs[f.index()];
    let once = func.is_defined
        && !r.named
        && match r.sites[..] {
            // The C runtime calls `main` once.
            [] => program.main == Some(f),
            [(g, b)] => {
                decide(program, refs, g, state) && !on_cycle(&program.funcs[g.index()], b.index())
            }
            _ => false,
        };
    state[f.index()] = Visit::Done(once);
    once
}

/// Every reference to every function.
fn references(program: &Program) -> Vec<References> {
    let mut refs = vec![References::default(); program.funcs.len()];
    let name = |o: &Operand, refs: &mut Vec<References>| {
        if let Operand::FuncAddr(g) = o {
            refs[g.index()].named = true;
        }
    };
    for o in &program.hidden_addrs {
        name(o, &mut refs);
    }
    for c in (program.globals.iter())
        .filter_map(|g| g.init.as_ref())
        .flatten()
    {
        if let InitValue::FuncAddr(g) = c.value {
            refs[g.index()].named = true;
        }
    }
    for (fi, func) in program.funcs.iter().enumerate() {
        for (bi, b) in func.blocks.iter().enumerate() {
            let site = (FuncId::from(fi), BlockId::from(bi));
            for phi in &b.phis {
                phi.incoming.iter().for_each(|(_, o)| name(o, &mut refs));
            }
            if let Terminator::Ret(Some(o))
            | Terminator::CondBr { cond: o, .. }
            | Terminator::Switch { value: o, .. } = &b.term
            {
                name(o, &mut refs);
            }
            for inst in &b.insts {
                match &inst.kind {
                    InstKind::Call {
                        callee: Callee::Direct(g),
                        ..
                    } => refs[g.index()].sites.push(site),
                    InstKind::ThreadCreate {
                        entry: Operand::FuncAddr(g),
                        handle,
                        arg,
                        ..
                    } => {
                        refs[g.index()].sites.push(site);
                        refs[g.index()].created = true;
                        name(handle, &mut refs);
                        name(arg, &mut refs);
                        continue;
                    }
                    _ => {}
                }
                inst.kind.for_each_use(|o| name(o, &mut refs));
            }
        }
    }
    refs
}

/// A call of `pthread_once` (or `call_once`) that runs its routine `routine` itself, at most
/// once: instruction `inst` of block `block` of `func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RoutineAtCall {
    /// The function of the call.
    pub func: FuncId,
    /// The block of the call.
    pub block: BlockId,
    /// The call's index in the block.
    pub inst: u32,
    /// The routine it runs.
    pub routine: FuncId,
}

/// The calls of a declared function whose row says `Props::once` (`pthread_once(o, f)`,
/// `call_once(o, f)`) that run their routine there, in the calling thread, and nowhere else:
/// `o` is the address of a global whose initial contents are zero (`PTHREAD_ONCE_INIT`,
/// `ONCE_FLAG_INIT`) and `f` the address of a defined function, the call runs at most once
/// ([`RunsOnce`]), and this argument is the only mention of that global and of that function in
/// the whole program (no other operand, initialiser, hidden address or direct call).
///
/// Soundness: POSIX (`pthread_once`) and C11 7.26.2.1 (`call_once`) run the routine during the
/// first call with a control object in its initial state, in the calling thread, and no call
/// with it returns before the routine ended (`Props::once`). No other code can name the control
/// object (the program is all the code that names its globals, README), so this call is the
/// first and only one with it, and it runs at most once: the routine runs exactly there when
/// the call runs. Nothing else names the routine, so it runs nowhere else. A cancelled routine
/// ends the calling thread before the call returns, which the inlined routine's cancellation
/// points show as well; only a later call with the control object would run it again, and
/// there is none. The control object is read and written only by this call, so leaving its
/// bytes out (the call is not run as a library call) hides nothing from any other code.
pub fn routines_at_their_call(program: &Program) -> Vec<RoutineAtCall> {
    let mut candidates = Vec::new();
    for c in program.direct_calls() {
        let gf = &program.funcs[c.callee.index()];
        // (`lib`, not `library()`: a definition of the program's of that name is inlined as
        // a function, so it is never a library call here.)
        if gf.is_defined || !gf.lib.is_some_and(|l| l.props().once) {
            continue;
        }
        if let [Operand::GlobalAddr(o, _), Operand::FuncAddr(r), ..] = c.args[..] {
            let at = RoutineAtCall {
                func: c.func,
                block: c.block,
                inst: c.idx,
                routine: r,
            };
            candidates.push((at, o));
        }
    }
    if candidates.is_empty() {
        return Vec::new();
    }
    let (funcs, globals) = mentions(program);
    let runs = RunsOnce::compute(program);
    candidates
        .into_iter()
        .filter(|(c, o)| {
            let global = &program.globals[o.index()];
            let zero = global
                .init
                .as_ref()
                .is_some_and(|cells| cells.iter().all(|c| matches!(c.value, InitValue::Int(0))));
            zero && !global.thread_local
                && funcs[c.routine.index()] == 1
                && globals[o.index()] == 1
                && program.funcs[c.routine.index()].is_defined
                && runs.block(program, c.func, c.block)
        })
        .map(|(c, _)| c)
        .collect()
}

/// How many times the program mentions each function (direct calls, addresses anywhere) and
/// each global (addresses anywhere), by id.
fn mentions(program: &Program) -> (Vec<u32>, Vec<u32>) {
    let mut funcs = vec![0u32; program.funcs.len()];
    let mut globals = vec![0u32; program.globals.len()];
    let op = |o: &Operand, funcs: &mut Vec<u32>, globals: &mut Vec<u32>| match o {
        Operand::FuncAddr(g) => funcs[g.index()] += 1,
        Operand::GlobalAddr(g, _) => globals[g.index()] += 1,
        _ => {}
    };
    for o in &program.hidden_addrs {
        op(o, &mut funcs, &mut globals);
    }
    for c in (program.globals.iter())
        .filter_map(|g| g.init.as_ref())
        .flatten()
    {
        match c.value {
            InitValue::FuncAddr(g) => funcs[g.index()] += 1,
            InitValue::GlobalAddr(g, _) => globals[g.index()] += 1,
            InitValue::Int(_) | InitValue::Unknown => {}
        }
    }
    for func in &program.funcs {
        for b in &func.blocks {
            for phi in &b.phis {
                for (_, o) in &phi.incoming {
                    op(o, &mut funcs, &mut globals);
                }
            }
            if let Terminator::Ret(Some(o))
            | Terminator::CondBr { cond: o, .. }
            | Terminator::Switch { value: o, .. } = &b.term
            {
                op(o, &mut funcs, &mut globals);
            }
            for inst in &b.insts {
                if let InstKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } = &inst.kind
                {
                    funcs[g.index()] += 1;
                }
                inst.kind.for_each_use(|o| op(o, &mut funcs, &mut globals));
            }
        }
    }
    (funcs, globals)
}

/// Whether block `b` of `func` can reach itself.
pub fn on_cycle(func: &Function, b: usize) -> bool {
    let mut seen = vec![false; func.blocks.len()];
    let mut stack = successors(&func.blocks[b].term);
    while let Some(x) = stack.pop() {
        if x == b {
            return true;
        }
        if std::mem::replace(&mut seen[x], true) {
            continue;
        }
        stack.extend(successors(&func.blocks[x].term));
    }
    false
}

fn successors(t: &Terminator) -> Vec<usize> {
    match t {
        Terminator::Br(x) => vec![x.index()],
        Terminator::CondBr { then_, else_, .. } => vec![then_.index(), else_.index()],
        Terminator::Switch { cases, default, .. } => (cases.iter().map(|c| c.1.index()))
            .chain([default.index()])
            .collect(),
        Terminator::Ret(_) | Terminator::Stop { .. } => Vec::new(),
    }
}
