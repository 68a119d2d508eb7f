//! The interpreter as a [`System`] the search drives: the initial state, the enabled threads,
//! their alternatives and steps, and what the search asks about a state.

use super::*;

impl System for Interp<'_> {
    type State = State;

    fn initial(&self) -> State {
        let p = self.program;
        let mem = (0..p.globals.len())
            .map(|g| {
                let g = GlobalId::from(g);
                let mut a = self.global_alloc(g, AllocKind::Global(g));
                a.key = g.0 as u64;
                a
            })
            .collect();
        // A real run of `main(argc, argv)` has argc == 1; argv is not modelled.
        let main = &p.funcs[self.main.index()];
        let args: Vec<Value> = main
            .params
            .iter()
            .enumerate()
            .map(|(i, v)| match main.vars[v.index()].ty {
                Ty::Int(bits) if i == 0 => Value::int(1, bits),
                _ => Value::Unknown,
            })
            .collect();
        // Exact: argc and argv may be anything, which the interpreter does not model.
        let params_read = (main.params.iter()).any(|v| {
            self.used
                .get(self.main.index())
                .is_some_and(|u| u[v.index()])
        });
        let status = if params_read {
            Status::Unsupported(Abandon::Unmodelled("`main` reads argc or argv".to_string()))
        } else {
            Status::Running
        };
        State {
            mem,
            threads: std::iter::once(Thread::starting(
                self.main,
                Value::Unknown,
                1,
                Stack::one(self.frame(self.main, &args)),
            ))
            .collect(),
            finished: 0,
            cut: 0,
            unstarted: 1,
            hint: Hint::default(),
            instances: BTreeMap::new(),
            heap_blocks: BTreeMap::new(),
            addrs: BTreeMap::new(),
            next_addr: addr::ADDR_BASE,
            keys: Vec::new(),
            locks: BTreeMap::new(),
            atomic: None,
            status,
            steps: 0,
            shadow: shadow::cell::ShadowCell(
                (self.concolic).then(|| Box::new(shadow::cell::Shadow::new())),
            ),
        }
    }

    fn status(&self, s: &State) -> Status {
        s.status.clone()
    }

    fn enabled(&self, s: &State) -> Vec<Tid> {
        if s.status != Status::Running {
            return Vec::new();
        }
        self.enabled_raw(s)
    }

    fn alternatives(&self, s: &State, t: Tid) -> usize {
        if s.threads[t].at != At::Inst {
            return 1;
        }
        // A terminator has one.
        let Some(inst) = self.cur_inst(s, t) else {
            return 1;
        };
        match &inst.kind {
            InstKind::Nondet { ty, .. }
                if matches!(ty, Ty::Int(_)) && self.forced_input(s, t).is_some() =>
            {
                1
            }
            InstKind::Nondet { dst, ty, is_bool } => {
                self.input_values_of(s, t, *dst, *ty, *is_bool).len()
            }
            // Exact: the allocation succeeds, or it fails.
            InstKind::HeapAlloc { .. } if self.options.exact => 2,
            kind @ InstKind::Call { callee, .. } => match self.callee(s, t, callee) {
                Some(f) if self.ext[f.index()] == Ext::Lib(Run::Unknown) => {
                    match self.unknown_result(f, kind) {
                        Some(_) if self.forced_input(s, t).is_some() => 1,
                        Some(ty) => self.input_values(ty, false).len(),
                        None => 1,
                    }
                }
                _ => 1,
            },
            InstKind::HeapAlloc { .. }
            | InstKind::Bin { .. }
            | InstKind::Cmp { .. }
            | InstKind::Cast { .. }
            | InstKind::Select { .. }
            | InstKind::Copy { .. }
            | InstKind::Gep { .. }
            | InstKind::Alloca { .. }
            | InstKind::Load { .. }
            | InstKind::Store { .. }
            | InstKind::AtomicRmw { .. }
            | InstKind::CmpXchg { .. }
            | InstKind::MemSet { .. }
            | InstKind::MemCopy { .. }
            | InstKind::ThreadCreate { .. }
            | InstKind::ThreadJoin { .. }
            | InstKind::Lock { .. }
            | InstKind::Unlock { .. }
            | InstKind::AtomicBegin
            | InstKind::AtomicEnd
            | InstKind::Assert { .. }
            | InstKind::Assume { .. }
            | InstKind::Havoc { .. } => 1,
        }
    }

    fn step(&self, s: &mut State, t: Tid, alt: usize) -> StepInfo {
        debug_assert!(self.enabled(s).contains(&t), "thread {t} is not enabled");
        let atomic_before = s.atomic.is_some();
        self.hooks(s).step_begins(self, s, t);
        let (span, kind) = self.exec_pending(s, t, alt);
        if self.options.exact {
            // The step budget is per step (a thread's local code that never ends), and not
            // part of the state.
            s.steps = 0;
        }
        let kind = match kind {
            Ok(k) => {
                if let Err(st) = self.run_local(s, t) {
                    s.status = st;
                }
                k
            }
            Err(st) => {
                s.status = st;
                placeholder_kind()
            }
        };
        if self.options.exact {
            s.steps = 0;
        }
        // The thread changed by the step goes back into the tree (states are hashed after
        // steps).
        s.threads.settle();
        if s.status == Status::Done {
            self.hooks(s).process_exited(self, s);
        }
        if s.status == Status::Running {
            let atomic_ended = atomic_before && s.atomic.is_none();
            if let Some((id, ..)) = self.race_after_step(s, t, atomic_ended) {
                s.status = Status::Violated(id);
            } else if s.finished as usize == s.threads.len() {
                s.status = Status::Done;
            } else if !self.any_enabled(s, t) {
                s.status = if s.cut > 0 {
                    Status::Cut
                } else {
                    Status::Deadlock
                };
            }
        }
        StepInfo { tid: t, span, kind }
    }

    fn may_block(&self) -> bool {
        self.blocking
    }

    fn thread_count(&self, s: &State) -> usize {
        s.threads.len()
    }

    fn ready(&self, s: &State, t: Tid) -> bool {
        Interp::ready(self, s, t)
    }

    fn local_next(&self, s: &State, t: Tid) -> bool {
        (s.threads.get(t)).is_some_and(|th| th.at == At::Start)
    }

    fn done(&self, s: &State, t: Tid) -> bool {
        (s.threads.get(t)).is_some_and(|th| matches!(th.at, At::Finished | At::Cut | At::Spins))
    }

    fn ends_process_next(&self, s: &State, t: Tid) -> bool {
        t < s.threads.len() && Interp::ends_process_next(self, s, t)
    }

    fn next_op(&self, s: &State, t: Tid) -> Next {
        self.next_event(s, t)
    }

    fn content(&self, s: &State, loc: &Loc) -> Vec<u8> {
        self.content_of(s, loc)
    }

    fn fresh_content(&self, s: &State, loc: &Loc) -> Option<Vec<u8>> {
        self.fresh_content_of(s, loc)
    }

    fn thread_name(&self, s: &State, t: Tid) -> String {
        if t == 0 {
            return "main".into();
        }
        let th = &s.threads[t];
        let name = self.program.funcs[th.entry.index()].name.clone();
        let k = th.instance;
        if k == 1 {
            name
        } else {
            format!("{name}#{k}")
        }
    }
}
