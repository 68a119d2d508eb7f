//! The state of one execution (memory, threads, their frames, locks, atomic section, status,
//! budget) and the accessors of a thread's top frame every other part uses.
//!
//! Invariant: the state is plain data (`Clone + Eq + Hash`, no maps with random order), so
//! equal states have equal futures; what is not part of its meaning (`Hint`, the concolic
//! shadow) compares equal and hashes to nothing.

use super::*;

/// One function activation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Frame {
    pub(super) func: FuncId,
    pub(super) block: BlockId,
    /// The next instruction of `block` (its terminator when past the instructions).
    pub(super) pc: u32,
    pub(super) vars: Vec<Value>,
    /// How many times each block was entered in this activation (the loop bound).
    pub(super) visits: Vec<u32>,
    /// The allocations of its `alloca`s, which die when it returns.
    pub(super) allocas: Vec<u32>,
}

/// Where a thread stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum At {
    /// Before its first step.
    Start,
    /// At the instruction its top frame's `pc` names, a visible one.
    Inst,
    /// In `pthread_cond_wait` (at that call) after releasing the mutex: waits to lock it.
    Relock { alloc: u32, off: i64 },
    /// Finished (returned from its entry or called `pthread_exit`).
    Finished,
    /// Went past the loop bound: never scheduled again. The other threads go on (a real
    /// execution in which this thread is slow); the execution ends `Cut` when nothing else
    /// can move.
    Cut,
    /// Exact mode only: its local code came back to a state it had been in, so it loops
    /// there forever and never does anything another thread sees (`while (f == 1) {}` after
    /// reading `f` once): never scheduled again, and no assertion of it fails later.
    Spins,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Thread {
    pub(super) entry: FuncId,
    /// The argument of its entry (its frame is made at its start).
    pub(super) arg: Value,
    /// Which thread of its entry function it is (1 for the first), for its name.
    pub(super) instance: u32,
    /// Its call stack: persistent, so that a step of a thread deep in recursion copies and
    /// hashes its top frame, not all of them.
    pub(super) frames: Stack<Frame>,
    pub(super) at: At,
    /// The entry's result, once finished.
    pub(super) ret: Value,
    pub(super) joined: bool,
    /// How many allocations (stack and heap) the thread made, for their stable keys.
    pub(super) allocs: u32,
    /// How many inputs the thread took (counted only with forced inputs).
    pub(super) inputs: u32,
    /// Its copies of the thread-local globals: (global, allocation); empty for `main`, which
    /// uses the globals' own allocations.
    pub(super) tls: Vec<(u32, u32)>,
    /// Its values of the keys of thread-specific data that it set, by key.
    pub(super) specific: Vec<(u32, Value)>,
    /// While it runs the destructors of its keys' values after its end: its result.
    pub(super) ending: Option<Value>,
    /// How many destructors it ran (at most [`DESTRUCTOR_ITERATIONS`] rounds over the keys).
    pub(super) destructors: u32,
}

impl Thread {
    /// A thread of `entry(arg)`, the `instance`-th of its entry, about to start with `frames`
    /// (none for a created thread: its frame is made when it starts).
    pub(super) fn starting(entry: FuncId, arg: Value, instance: u32, frames: Stack<Frame>) -> Self {
        Thread {
            entry,
            arg,
            instance,
            frames,
            at: At::Start,
            ret: Value::Unknown,
            joined: false,
            allocs: 0,
            inputs: 0,
            tls: Vec::new(),
            specific: Vec::new(),
            ending: None,
            destructors: 0,
        }
    }
}

/// One execution prefix: memory, threads, locks, atomic section, status and budget.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Allocations by id; globals first (allocation `g` is global `g`). Shared between the
    /// states of a search until written (the state is cloned at every branch): a persistent
    /// vector whose clone, change and digest cost nothing per allocation left alone.
    pub(super) mem: PVec<Alloc>,
    /// Threads, shared between states until written, like allocations: a deep search keeps
    /// one state per level, and most steps change one thread.
    pub(super) threads: PVec<Thread>,
    /// How many threads are finished, and how many were cut (`At::Finished`, `At::Cut`):
    /// counted as they change, so that a step never looks at every thread.
    pub(super) finished: u32,
    pub(super) cut: u32,
    /// How many threads have not started (`At::Start`): each can move outside another
    /// thread's atomic section.
    pub(super) unstarted: u32,
    /// A thread that could move when last looked at, where the next search for one starts
    /// (not part of the state's meaning: ignored by `==` and the hash).
    pub(super) hint: Hint,
    /// How many threads each entry function has started (by `FuncId`), for their names.
    pub(super) instances: BTreeMap<u32, u32>,
    /// How many blocks each heap allocation site has made (by `ObjId`), for their names.
    pub(super) heap_blocks: BTreeMap<u32, u32>,
    /// The objects given an address (`addr`), by address, and the next free address.
    pub(super) addrs: BTreeMap<u64, u32>,
    pub(super) next_addr: u64,
    /// The keys of thread-specific data created (`pthread_key_create`), by key: the
    /// destructor, and whether the key is not deleted.
    pub(super) keys: Vec<(Value, bool)>,
    /// Held locks (allocation, offset) and their owner.
    pub(super) locks: BTreeMap<(u32, i64), Tid>,
    /// The thread inside an `__VERIFIER_atomic_begin` section, and its nesting depth.
    pub(super) atomic: Option<(Tid, u32)>,
    pub(super) status: Status,
    /// Instructions executed so far.
    pub(super) steps: u64,
    /// The concolic shadow (equal in every state, `None` unless the interpreter is concolic).
    pub(super) shadow: shadow::cell::ShadowCell,
}

/// A thread that could move when last looked at: where `Interp::any_enabled` starts. Not part
/// of a state's meaning: every hint equals every other and hashes to nothing.
#[derive(Debug, Default)]
pub(super) struct Hint(std::sync::atomic::AtomicUsize);

impl Hint {
    pub(super) fn get(&self) -> Tid {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub(super) fn set(&self, t: Tid) {
        self.0.store(t, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Clone for Hint {
    fn clone(&self) -> Self {
        Hint(std::sync::atomic::AtomicUsize::new(self.get()))
    }
}

impl PartialEq for Hint {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Hint {}

impl std::hash::Hash for Hint {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl<'p> Interp<'p> {
    pub(super) fn frame(&self, f: FuncId, args: &[Value]) -> Frame {
        let func = &self.program.funcs[f.index()];
        let mut vars = vec![Value::Unknown; func.vars.len()];
        for (p, a) in func.params.iter().zip(args) {
            vars[p.index()] = *a;
        }
        let mut visits = vec![0; func.blocks.len()];
        visits[0] = 1;
        Frame {
            func: f,
            block: BlockId(0),
            pc: 0,
            vars,
            visits,
            allocas: Vec::new(),
        }
    }

    pub(super) fn top<'s>(&self, s: &'s State, t: Tid) -> &'s Frame {
        s.threads[t]
            .frames
            .last()
            .expect("a running thread has a frame")
    }

    pub(super) fn top_mut<'s>(&self, s: &'s mut State, t: Tid) -> &'s mut Frame {
        s.threads
            .make_mut(t)
            .frames
            .last_mut()
            .expect("a running thread has a frame")
    }

    /// The instruction thread `t` is at, if it is at one (not at a terminator).
    pub(super) fn cur_inst(&self, s: &State, t: Tid) -> Option<&'p Inst> {
        self.inst_of(s.threads[t].frames.last()?)
    }

    /// The instruction frame `fr` is at, if it is at one (not at a terminator).
    pub(super) fn inst_of(&self, fr: &Frame) -> Option<&'p Inst> {
        self.program.funcs[fr.func.index()].blocks[fr.block.index()]
            .insts
            .get(fr.pc as usize)
    }

    pub(super) fn eval(&self, s: &State, t: Tid, op: &Operand) -> Value {
        match *op {
            Operand::Var(v) => self.top(s, t).vars[v.index()],
            Operand::Int { value, bits } => Value::int(value, bits),
            Operand::Null => Value::NULL,
            Operand::GlobalAddr(g, off) => {
                // A thread-local global names the running thread's copy.
                let own = (s.threads[t].tls.iter()).find_map(|&(h, a)| (h == g.0).then_some(a));
                Value::Ptr(Ptr::Mem {
                    alloc: own.unwrap_or(g.0),
                    off,
                })
            }
            Operand::FuncAddr(f) => Value::Ptr(Ptr::Func(f)),
            Operand::Unknown(_) => Value::Unknown,
        }
    }

    pub(super) fn op_ty(&self, s: &State, t: Tid, op: &Operand) -> Ty {
        match *op {
            Operand::Var(v) => self.program.funcs[self.top(s, t).func.index()].vars[v.index()].ty,
            Operand::Int { bits, .. } => Ty::Int(bits),
            Operand::Null | Operand::GlobalAddr(..) | Operand::FuncAddr(_) => Ty::Ptr,
            Operand::Unknown(ty) => ty,
        }
    }

    pub(super) fn set(&self, s: &mut State, t: Tid, dst: VarId, v: Value) {
        self.top_mut(s, t).vars[dst.index()] = v;
    }

    pub(super) fn set_opt(&self, s: &mut State, t: Tid, dst: Option<VarId>, v: Value) {
        if let Some(d) = dst {
            self.set(s, t, d, v);
        }
    }

    pub(super) fn advance(&self, s: &mut State, t: Tid) {
        self.top_mut(s, t).pc += 1;
    }

    /// The defined or declared function a call reaches, if known.
    pub(super) fn callee(&self, s: &State, t: Tid, callee: &Callee) -> Option<FuncId> {
        match callee {
            Callee::Direct(f) => Some(*f),
            Callee::Indirect(op) => match self.eval(s, t, op) {
                Value::Ptr(Ptr::Func(f)) => Some(f),
                _ => None,
            },
        }
    }

    /// A fresh copy of global `g` holding its initial contents.
    pub(super) fn global_alloc(&self, g: GlobalId, kind: AllocKind) -> Alloc {
        let p = self.program;
        let global = &p.globals[g.index()];
        let size = p.objects[global.obj.index()]
            .layout
            .as_ref()
            .map(Layout::size);
        let Some(cells) = &global.init else {
            return Alloc::new(kind, size, Byte::Unknown);
        };
        let extent = cells
            .iter()
            .map(|c| c.offset + u64::from(c.size))
            .max()
            .unwrap_or(0);
        let size = size.filter(|&n| n > 0).map(|n| n.max(extent));
        let mut a = Alloc::new(kind, size, Byte::Data(0));
        for c in cells {
            let v = match c.value {
                crate::ir::InitValue::Int(v) => Value::int(v, c.size * 8),
                crate::ir::InitValue::GlobalAddr(h, off) => {
                    Value::Ptr(Ptr::Mem { alloc: h.0, off })
                }
                crate::ir::InitValue::FuncAddr(f) => Value::Ptr(Ptr::Func(f)),
                crate::ir::InitValue::Unknown => Value::Unknown,
            };
            let _ = a.write(c.offset as i64, &encode(v, c.size, p.pointer_size));
        }
        a
    }
}

/// The variable a call instruction writes its result into; `None` for any other instruction
/// (a frame below the top is always at a call: it waits for the callee to return).
pub(super) fn call_result(inst: &Inst) -> Option<VarId> {
    if let InstKind::Call { dst, .. } = inst.kind {
        dst
    } else {
        None
    }
}
