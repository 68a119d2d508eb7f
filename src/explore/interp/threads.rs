//! Threads and synchronisation: which threads can move, thread creation and join, locks,
//! atomic sections, and a thread's end (its frames unwound, its key destructors run).
//!
//! Invariant: the counts of the state (`finished`, `cut`, `unstarted`) change only here and in
//! the step's loop bound (`goto`), together with the `At` they count.

use super::*;
use crate::ir::effects::Effect;

impl<'p> Interp<'p> {
    /// Restarts the loop counts of thread `t`'s top activation (`InterpOptions::thread_loops`),
    /// while the execution has fewer than [`MAX_LOOP_THREADS`] threads.
    pub(super) fn thread_loop_round(&self, s: &mut State, t: Tid) {
        if self.options.thread_loops && !self.options.exact && s.threads.len() < MAX_LOOP_THREADS {
            for v in &mut self.top_mut(s, t).visits {
                *v = 0;
            }
        }
    }

    /// Gives thread `t` (not `main`, whose copies are the globals' own allocations) a fresh
    /// copy of every thread-local global with its initial contents: allocations it owns, like
    /// its stack, that no other thread can reach (`ir::Global::thread_local`).
    pub(super) fn thread_local_copies(&self, s: &mut State, t: Tid) {
        for &g in self.thread_locals.iter() {
            let global = &self.program.globals[g.index()];
            let kind = AllocKind::Stack {
                obj: global.obj,
                owner: t,
            };
            let mut a = self.global_alloc(g, kind);
            a.key = self.alloc_key(s, t);
            let id = s.mem.len() as u32;
            s.mem.push(a);
            s.threads.focus_mut(t).tls.push((g.0, id));
        }
    }

    pub(super) fn thread_ready(&self, s: &State, t: Tid) -> bool {
        let th = &s.threads[t];
        match th.at {
            At::Finished | At::Cut | At::Spins => false,
            At::Start => true,
            At::Relock { alloc, off } => !s.locks.contains_key(&(alloc, off)),
            At::Inst => match self.cur_inst(s, t) {
                Some(inst) => self.inst_ready(s, t, inst),
                // Soundness (no false violation): the `main` of a driver harness is no code
                // of the program; it ends the process only once every entry it started ended,
                // a restriction of the runs to those in which the kernel lets them finish.
                None if t == 0 && self.harness && self.ends_process(s, t) => {
                    (s.finished + s.cut) as usize + 1 >= s.threads.len()
                }
                None => true,
            },
        }
    }

    /// Whether thread `t` can run `inst` now, read from its effects: only a lock (held by
    /// another thread) and a join (of a thread not finished) wait.
    fn inst_ready(&self, s: &State, t: Tid, inst: &Inst) -> bool {
        let mut ready = true;
        inst.kind.effects(|e| match e {
            Effect::Locks { lock, .. } => {
                ready = match self.eval(s, t, lock) {
                    // Exact: a relock by the owner runs, and stops as unsupported (a recursive
                    // mutex would take it, a normal one waits forever).
                    Value::Ptr(Ptr::Mem { alloc, off }) => match s.locks.get(&(alloc, off)) {
                        None => true,
                        Some(&owner) => self.options.exact && owner == t,
                    },
                    // Runs, and stops as unsupported.
                    _ => true,
                }
            }
            Effect::JoinsThread { handle } => {
                ready = match self.join_target(s, t, handle) {
                    Ok(c) => s.threads[c].at == At::Finished,
                    Err(_) => true,
                }
            }
            // A condition wait waits at its relock (`At::Relock`), after its call.
            Effect::Mem(_)
            | Effect::Allocates
            | Effect::Zeroes { .. }
            | Effect::Call { .. }
            | Effect::CreatesThread { .. }
            | Effect::Unlocks { .. }
            | Effect::AtomicSection(_)
            | Effect::Clobbers
            | Effect::Asserts
            | Effect::Assumes => {}
        });
        ready
    }

    /// Whether some thread can move (`!enabled_raw(s).is_empty()`, without building the list),
    /// looking at thread `from` first (the thread that just moved usually still can), then at
    /// whether a thread has not started, then from the last thread found ready on.
    pub(super) fn any_enabled(&self, s: &State, from: Tid) -> bool {
        match s.atomic {
            Some((a, _)) => self.thread_ready(s, a),
            None => {
                if self.thread_ready(s, from) || s.unstarted > 0 {
                    return true;
                }
                let n = s.threads.len();
                let start = s.hint.get().min(n);
                match (start..n)
                    .chain(0..start)
                    .find(|&t| self.thread_ready(s, t))
                {
                    Some(t) => {
                        s.hint.set(t);
                        true
                    }
                    None => false,
                }
            }
        }
    }

    pub(super) fn enabled_raw(&self, s: &State) -> Vec<Tid> {
        if let Some((a, _)) = s.atomic {
            return if self.thread_ready(s, a) {
                vec![a]
            } else {
                Vec::new()
            };
        }
        (0..s.threads.len())
            .filter(|&t| self.thread_ready(s, t))
            .collect()
    }

    pub(super) fn join_target(&self, s: &State, t: Tid, handle: &Operand) -> Exec<Tid> {
        match self.eval(s, t, handle) {
            Value::Int { v, .. }
                if usize::try_from(v).is_ok_and(|c| c > 0 && c < s.threads.len() && c != t) =>
            {
                Ok(v as usize)
            }
            Value::Unknown => unsupported("pthread_join of an unknown thread handle"),
            other => unsupported(format!(
                "pthread_join of an invalid thread handle {}",
                self.show(s, other)
            )),
        }
    }

    pub(super) fn lock_addr(&self, s: &State, t: Tid, lock: &Operand) -> Exec<(u32, i64)> {
        match self.eval(s, t, lock) {
            Value::Ptr(Ptr::Mem { alloc, off }) if s.mem[alloc as usize].live => Ok((alloc, off)),
            v => unsupported(format!(
                "a lock at an unknown address ({})",
                self.show(s, v)
            )),
        }
    }

    pub(super) fn release(&self, s: &mut State, t: Tid, alloc: u32, off: i64) -> Exec<()> {
        if s.locks.get(&(alloc, off)) != Some(&t) {
            return unsupported(format!(
                "unlock of `{}`, which this thread does not hold",
                self.describe_location(s, alloc, off)
            ));
        }
        s.locks.remove(&(alloc, off));
        Ok(())
    }

    /// Pops thread `t`'s top frame; its stack allocations die.
    pub(super) fn pop_frame(&self, s: &mut State, t: Tid) {
        self.hooks(s).frame_popped(self, s, t);
        if let Some(fr) = s.threads.focus_mut(t).frames.pop() {
            for a in fr.allocas {
                s.mem.make_mut(a as usize).kill();
            }
        }
    }

    /// Unsupported when a key destructor may run at the end of thread `t`
    /// (`Program::key_destructors`) and the interpreter does not know which function it is,
    /// so that what follows could not happen.
    pub(super) fn destructors_unsupported(&self, t: Tid) -> Result<(), Status> {
        let known = self
            .program
            .key_slot
            .is_some_and(|k| k.destructor.is_some());
        if self.program.key_destructors && !known {
            return unsupported(format!(
                "thread {t} ends, and a key destructor may run (not modelled)"
            ));
        }
        Ok(())
    }

    /// Thread `t`'s value of the one key of `harness::keys` (its copy of the slot), when the
    /// program gives a destructor: the destructor and the value (as a pointer), unless NULL.
    pub(super) fn slot_destructor(&self, s: &mut State, t: Tid) -> Exec<Option<(FuncId, Value)>> {
        let Some(crate::ir::KeySlot {
            slot,
            destructor: Some(f),
        }) = self.program.key_slot
        else {
            return Ok(None);
        };
        let size = self.program.pointer_size;
        let p = self.eval(s, t, &Operand::GlobalAddr(slot, 0));
        match self.load(s, p, Ty::Int(size * 8), size)? {
            Value::Int { v: 0, .. } => Ok(None),
            Value::Int { v, .. } => {
                // POSIX: the value becomes NULL before the destructor runs.
                self.store(s, p, Value::int(0, size * 8), size)?;
                Ok(Some((f, Value::Ptr(self.ptr_of_int(s, v as u64)))))
            }
            _ => unsupported(format!(
                "thread {t} ends with an unknown value of thread-specific data, whose destructor \
                 may run"
            )),
        }
    }

    /// Thread `t`'s entry returned `v`, or it called `pthread_exit`: it runs the destructors
    /// of its keys' values that are not NULL (POSIX: the value becomes NULL, then the
    /// destructor runs with it, in rounds while values remain, at most
    /// [`DESTRUCTOR_ITERATIONS`]), then ends.
    pub(super) fn end_thread(&self, s: &mut State, t: Tid, v: Value) -> Exec<()> {
        self.destructors_unsupported(t)?;
        while !s.threads[t].frames.is_empty() {
            self.pop_frame(s, t);
        }
        let th = &s.threads[t];
        let rounds = DESTRUCTOR_ITERATIONS * (s.keys.len() as u32);
        let mut due = Vec::new();
        if th.destructors < rounds {
            for &(k, value) in &th.specific {
                let (dtor, live) = s.keys[k as usize];
                if !live || dtor == Value::NULL || value == Value::NULL {
                    continue;
                }
                match (dtor, value) {
                    (Value::Ptr(Ptr::Func(f)), Value::Ptr(_) | Value::Int { .. })
                        if self.program.funcs[f.index()].is_defined =>
                    {
                        due.push((k, f, value))
                    }
                    _ => {
                        return unsupported(format!(
                            "thread {t} ends, and a destructor of thread-specific data with an \
                             unknown function or value runs"
                        ))
                    }
                }
            }
        }
        if due.len() > 1 {
            self.restricted(|| {
                "destructors of thread-specific data run in the order of their keys".to_string()
            })?;
        }
        let Some(&(k, f, value)) = due.first() else {
            // The one key of `harness::keys`, in rounds as well.
            if s.threads[t].destructors < DESTRUCTOR_ITERATIONS {
                if let Some((f, value)) = self.slot_destructor(s, t)? {
                    let th = s.threads.focus_mut(t);
                    th.ending.get_or_insert(v);
                    th.destructors += 1;
                    let frame = self.frame(f, &[value]);
                    s.threads.focus_mut(t).frames.push(frame);
                    return Ok(());
                }
            }
            let v = s.threads.focus_mut(t).ending.take().unwrap_or(v);
            self.finish_thread(s, t, v);
            return Ok(());
        };
        let th = s.threads.focus_mut(t);
        th.ending.get_or_insert(v);
        th.destructors += 1;
        if let Some(e) = th.specific.iter_mut().find(|e| e.0 == k) {
            e.1 = Value::NULL;
        }
        let frame = self.frame(f, &[value]);
        s.threads.focus_mut(t).frames.push(frame);
        Ok(())
    }

    /// Thread `t` ends with result `v` (its entry returned or it called `pthread_exit`).
    pub(super) fn finish_thread(&self, s: &mut State, t: Tid, v: Value) {
        while !s.threads[t].frames.is_empty() {
            self.pop_frame(s, t);
        }
        self.escape(s, v);
        s.finished += 1;
        let th = s.threads.focus_mut(t);
        th.at = At::Finished;
        th.ret = v;
        if matches!(s.atomic, Some((a, _)) if a == t) {
            s.atomic = None;
        }
    }

    // ---- Thread operations (one visible step each) --------------------------------------

    /// `pthread_create(handle, _, entry, arg)` by thread `t` into `dst`: the new thread starts
    /// later (`At::Start`), its handle is its index.
    pub(super) fn exec_create(
        &self,
        s: &mut State,
        t: Tid,
        span: Option<Span>,
        dst: Option<VarId>,
        [handle, entry, arg]: [&Operand; 3],
    ) -> Exec<StepKind> {
        let f = match self.eval(s, t, entry) {
            Value::Ptr(Ptr::Func(f)) if self.program.funcs[f.index()].is_defined => f,
            _ => {
                return unsupported(format!(
                    "pthread_create of an unknown entry function{}",
                    self.at(span)
                ))
            }
        };
        self.result_restricted(s, t, dst, "pthread_create")?;
        let a = self.eval(s, t, arg);
        self.escape(s, a);
        let child = s.threads.len();
        let instance = s.instances.entry(f.0).or_insert(0);
        *instance += 1;
        let instance = *instance;
        s.unstarted += 1;
        // Its frame is made when it starts: a thread that never starts (one of 10,000
        // parked) costs its slot alone.
        s.threads
            .push(Thread::starting(f, a, instance, Stack::default()));
        self.thread_local_copies(s, child);
        // A null handle (the driver harness) names no thread to join.
        let h = self.eval(s, t, handle);
        if h != Value::NULL {
            let bits = self.program.pointer_size * 8;
            self.store(s, h, Value::int(child as i128, bits), bits / 8)?;
        }
        self.set_opt(s, t, dst, Value::int(0, 32));
        self.thread_loop_round(s, t);
        Ok(StepKind::Spawn {
            child,
            entry: self.program.funcs[f.index()].name.clone(),
        })
    }

    /// `pthread_join(handle, retval)` by thread `t` into `dst` (the joined thread finished:
    /// `thread_ready`); the result is `result_bits` wide (0: a pointer).
    pub(super) fn exec_join(
        &self,
        s: &mut State,
        t: Tid,
        span: Option<Span>,
        dst: Option<VarId>,
        handle: &Operand,
        (retval, result_bits): (&Operand, u32),
    ) -> Exec<StepKind> {
        self.result_restricted(s, t, dst, "pthread_join")?;
        let c = self.join_target(s, t, handle)?;
        if s.threads[c].joined {
            return unsupported(format!("a thread joined twice{}", self.at(span)));
        }
        s.threads.focus_mut(c).joined = true;
        let r = self.eval(s, t, retval);
        if r != Value::NULL {
            let v = s.threads[c].ret;
            let size = match result_bits {
                0 => self.program.pointer_size,
                bits => bits.div_ceil(8),
            };
            self.store(s, r, v, size)?;
        }
        self.set_opt(s, t, dst, Value::int(0, 32));
        self.thread_loop_round(s, t);
        Ok(StepKind::Join(c))
    }

    /// Thread `t` takes `lock` (it is free: `thread_ready`), its result into `dst`.
    pub(super) fn exec_lock(
        &self,
        s: &mut State,
        t: Tid,
        span: Option<Span>,
        dst: Option<VarId>,
        lock: &Operand,
        exclusive: bool,
    ) -> Exec<StepKind> {
        // Soundness: read locks are taken exclusively, a restriction of the real
        // behaviours (every schedule shown is still possible).
        if !exclusive {
            self.restricted(|| format!("a read lock is taken exclusively{}", self.at(span)))?;
        }
        self.result_restricted(s, t, dst, "pthread_mutex_lock")?;
        let (alloc, off) = self.lock_addr(s, t, lock)?;
        if s.locks.get(&(alloc, off)) == Some(&t) {
            self.restricted(|| {
                format!(
                    "a thread locks a mutex it holds, which its type decides{}",
                    self.at(span)
                )
            })?;
        }
        s.locks.insert((alloc, off), t);
        self.sync_object_written(s, alloc, off, self.program.sync_sizes.mutex);
        self.set_opt(s, t, dst, Value::int(0, 32));
        Ok(StepKind::Lock(self.describe_lock(s, alloc, off)))
    }

    /// Thread `t` releases `lock`, which it holds, its result into `dst`.
    pub(super) fn exec_unlock(
        &self,
        s: &mut State,
        t: Tid,
        dst: Option<VarId>,
        lock: &Operand,
    ) -> Exec<StepKind> {
        self.result_restricted(s, t, dst, "pthread_mutex_unlock")?;
        let (alloc, off) = self.lock_addr(s, t, lock)?;
        self.release(s, t, alloc, off)?;
        self.sync_object_written(s, alloc, off, self.program.sync_sizes.mutex);
        self.set_opt(s, t, dst, Value::int(0, 32));
        Ok(StepKind::Unlock(self.describe_lock(s, alloc, off)))
    }

    /// Thread `t` enters an atomic section (nested ones count their depth).
    pub(super) fn exec_atomic_begin(&self, s: &mut State, t: Tid) -> StepKind {
        let depth = match s.atomic {
            Some((a, d)) if a == t => d + 1,
            _ => 1,
        };
        s.atomic = Some((t, depth));
        StepKind::AtomicBegin
    }

    /// Thread `t` leaves its atomic section (the outermost one lets the others move again).
    pub(super) fn exec_atomic_end(
        &self,
        s: &mut State,
        t: Tid,
        span: Option<Span>,
    ) -> Exec<StepKind> {
        s.atomic = match s.atomic {
            Some((a, d)) if a == t && d > 1 => Some((a, d - 1)),
            Some((a, _)) if a == t => None,
            _ => {
                return unsupported(format!(
                    "__VERIFIER_atomic_end outside an atomic section{}",
                    self.at(span)
                ))
            }
        };
        Ok(StepKind::AtomicEnd)
    }
}

/// Whether a thread of `program` may ever wait for another (so that a search must look for
/// deadlocks): it locks a mutex, enters an atomic section, or calls `pthread_cond_wait`
/// (directly, or through a pointer, which may reach it).
pub(super) fn may_block(program: &Program, ext: &[Ext]) -> bool {
    let insts = program
        .funcs
        .iter()
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.insts);
    insts.into_iter().any(|i| {
        let mut waits = false;
        i.kind.effects(|e| match e {
            Effect::Locks { .. } | Effect::AtomicSection(true) => waits = true,
            Effect::Call {
                callee: Callee::Direct(f),
                ..
            } => waits |= ext[f.index()] == Ext::Lib(Run::CondWait),
            // An indirect call may reach `pthread_cond_wait`.
            Effect::Call {
                callee: Callee::Indirect(_),
                ..
            } => waits = true,
            Effect::Mem(_)
            | Effect::Allocates
            | Effect::Zeroes { .. }
            | Effect::CreatesThread { .. }
            | Effect::JoinsThread { .. }
            | Effect::Unlocks { .. }
            | Effect::AtomicSection(false)
            | Effect::Clobbers
            | Effect::Asserts
            | Effect::Assumes => {}
        });
        waits
    })
}
