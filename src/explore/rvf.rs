//! The reads-value-from stateless model checking search (RVF-SMC, Agarwal et al., CAV'21,
//! Algorithm 2) over a [`System`], and the reads-from search it becomes when every source of a
//! read is its own group: one maximal trace per class of executions that read the same values
//! (or from the same writes) in the same causal order among reads.
//!
//! Invariant: a violation is recorded only from a schedule the system actually ran (every
//! witness trace is replayed from the initial state), and the search is `complete` only if the
//! event model expressed every operation it met (else an [`Abandon::RvfGaveUp`] is in
//! `unsupported`, and the caller should use another strategy).
//!
//! Event model (why, in short): an event is one visible step, `(thread, k)`, its k-th.
//! - Memory: a load reads a location ([`Loc`]: stable object key, offset, size); a store
//!   writes one; an atomic update reads then writes it in one event. Two different ranges
//!   overlapping the same bytes are not expressible (a read would take bytes from several
//!   writes): the search gives up.
//! - Mutexes (CAV'21 appendix A): a mutex is a variable `free`/`held`: a lock is an update
//!   that may only read `free` (its good writes are releases or the initial value); a trylock
//!   is an update that reads either value (two groups) and writes only when it read `free`.
//! - Atomic sections are not modelled (the search gives up): they stop every other thread, so
//!   an event that is not a read could no longer be appended at the end of a trace, which
//!   step 1 (extension by such events) relies on. The witness search knows them (no other
//!   thread moves inside one) for when that is solved.
//! - Threads: `pthread_create` updates a thread counter (the child's id is the value it
//!   reads, so the ids are the same in every execution of a class) and the child starts after
//!   it; a join is not a read: it can run once every event of the child ran and it finished.
//! - Inputs: an event whose groups are its alternatives. It has no source, so after its
//!   alternatives nothing is left for the other enabled events to cover (the loop stops).
//! - Terminal steps (after which the execution stops: a failed assertion, an exit, a false
//!   assumption, an unsupported or cut step): what they mean is recorded when they run, and
//!   the event stays as a no-op that ends its thread (it reads, so its value still matters,
//!   but it writes nothing). Schedules replayed leave it out. Soundness: this explores the
//!   program in which such a step stops only its thread; its executions without those events
//!   are executions of the real program (the thread is merely slow), and every real execution
//!   ends with at most one such step, whose value and thread state some explored trace of the
//!   same class reproduces.
//!
//! The algorithm: `System::next_op` tells a thread's next visible operation without running it
//! (even when it is blocked), with locations named by stable allocation keys (a thread's n-th
//! allocation), since allocation ids depend on the schedule. A call replays its witness schedule,
//! extends it with every event that is not a read, signals ancestor reads that gained a possible
//! new source, then for each enabled read tries each group of same-value writes not excluded by the
//! causal map, realised by VerifySC (a depth-first search over witness states, guided by the
//! current trace). With mutexes, a read may never run in a maximal execution, so the
//! backtrack-signal stop (Lemma 1) is off and the causal map alone keeps the search complete. When
//! it gives up (`GAVE_UP`: atomic sections, operations on several locations, overlapping accesses
//! of different sizes), the exhaustive explorer falls back to `Strategy::Reduced`.

use super::found::{record_status, Budget, SearchResult};
use super::{Abandon, ExecStatus, Loc, Next, Op, StepInfo, StepKind, System, Tid};
use crate::ir::AssertId;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Instant;

/// Which equivalence the search explores one trace of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RvfMode {
    /// Reads-from: a read's sources are tried one by one.
    ReadsFrom,
    /// Reads-value-from: a read's sources are grouped by the value they write.
    Value,
}

/// What an event reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Var {
    Mem(Loc),
    Mutex(Loc),
    /// How many threads were created (the next thread id).
    Threads,
    /// The pseudo-mutex of `__VERIFIER_atomic_begin`.
    Atomic,
}

/// An event: the k-th visible step of a thread.
type EvId = (Tid, usize);
/// A source of a read: a write event, or the initial value (`None`).
type Src = Option<EvId>;

/// A value written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Val {
    Bytes(Vec<u8>),
    /// Equal to no other value: unknown contents, or a write not run yet.
    Unique(Src),
}

const FREE: &[u8] = b"free";
const HELD: &[u8] = b"held";

fn count(n: usize) -> Val {
    Val::Bytes((n as u64).to_le_bytes().to_vec())
}

/// One event, as the witness search and the source selection see it.
#[derive(Clone, Debug)]
struct Ev {
    read: Option<Var>,
    /// A lock or atomic begin: only writes of `free` are sources.
    lock: bool,
    writes: Vec<(Var, Val)>,
    /// How many alternatives, for an input with several.
    alts: usize,
    alt: usize,
    join: Option<Tid>,
    spawned: Option<Tid>,
    /// +1 entering an atomic section, -1 leaving it.
    atomic: i8,
    /// The step ended the execution: a no-op that ends its thread.
    terminal: bool,
}

impl Ev {
    /// The event of `op`, before it runs (`id` names the values it will write).
    fn pending(op: &Op, id: EvId, alts: usize) -> Ev {
        let unknown = || Val::Unique(Some(id));
        let mut e = Ev {
            read: None,
            lock: false,
            writes: Vec::new(),
            alts: if matches!(op, Op::Input) { alts } else { 1 },
            alt: 0,
            join: None,
            spawned: None,
            atomic: 0,
            terminal: false,
        };
        match *op {
            Op::Local | Op::Input | Op::Opaque(_) => {}
            Op::Load(l) => e.read = Some(Var::Mem(l)),
            Op::Store(l) => e.writes.push((Var::Mem(l), unknown())),
            // Soundness (witness search): an update that may fail is taken to write; a
            // witness then exists whenever one without the write does (the failed update
            // can move to just before the next write of its location).
            Op::Update(l) => {
                e.read = Some(Var::Mem(l));
                e.writes.push((Var::Mem(l), unknown()));
            }
            Op::Lock(m) => {
                e.read = Some(Var::Mutex(m));
                e.lock = true;
                e.writes.push((Var::Mutex(m), Val::Bytes(HELD.to_vec())));
            }
            // Whether it writes depends on the value it reads: see `with_group`.
            Op::TryLock(m) => e.read = Some(Var::Mutex(m)),
            Op::Unlock(m) => e.writes.push((Var::Mutex(m), Val::Bytes(FREE.to_vec()))),
            Op::Spawn { handle } => {
                e.read = Some(Var::Threads);
                e.writes.push((Var::Threads, unknown()));
                e.writes.extend(handle.map(|h| (Var::Mem(h), unknown())));
            }
            Op::Join { child, result } => {
                e.join = Some(child);
                e.writes.extend(result.map(|r| (Var::Mem(r), unknown())));
            }
            Op::AtomicBegin => {
                e.read = Some(Var::Atomic);
                e.lock = true;
                e.writes.push((Var::Atomic, Val::Bytes(HELD.to_vec())));
                e.atomic = 1;
            }
            Op::AtomicEnd => {
                e.writes.push((Var::Atomic, Val::Bytes(FREE.to_vec())));
                e.atomic = -1;
            }
        }
        e
    }

    /// Whether the search branches on this event (a read, or an input with several values).
    fn branches(&self) -> bool {
        self.read.is_some() || self.alts > 1
    }
}

/// The variables an operation touches, for the check that ranges never overlap.
fn mem_locs(op: &Op) -> Vec<Loc> {
    match *op {
        Op::Load(l) | Op::Store(l) | Op::Update(l) => vec![l],
        Op::Spawn { handle: Some(l) }
        | Op::Join {
            result: Some(l), ..
        } => vec![l],
        _ => Vec::new(),
    }
}

/// A recursive call's input: a witness schedule of its events, the good writes of its reads
/// and the causal map (sources already tried, per pending read).
struct Node {
    order: Vec<(Tid, usize)>,
    gw: HashMap<EvId, Vec<Src>>,
    forbidden: HashMap<EvId, Vec<Src>>,
}

/// Where a thread stands after a call's extension.
#[derive(Clone, Debug)]
enum End {
    /// Its next event, not run yet.
    Open(Ev),
    /// Finished, or cut by the loop bound, or stopped at a terminal event.
    Finished,
    Closed,
}

/// A call of Algorithm 2 in progress.
struct Frame {
    /// The witness trace, extended (every event, terminal ones included, in order).
    order: Vec<(Tid, usize)>,
    evs: Vec<Vec<Ev>>,
    ends: Vec<End>,
    gw: HashMap<EvId, Vec<Src>>,
    forbidden: HashMap<EvId, Vec<Src>>,
    /// The enabled branching events, in processing order, the current one, and whether it
    /// is being processed.
    cands: Vec<Tid>,
    ci: usize,
    busy: bool,
    /// The source groups (or input alternatives) of the current candidate, and the next one.
    groups: Vec<Vec<Src>>,
    gi: usize,
    /// The current candidate had a causal-map entry; a new source for it was discovered.
    had_c: bool,
    signal: bool,
    children: u64,
    /// The causal map took sources away from a candidate: without children, the frame is a
    /// dead end (its trace is a prefix of one explored elsewhere), not a maximal trace.
    pruned: bool,
    /// Initial values, by variable (of the state after the extension).
    fresh: HashMap<Var, Val>,
}

/// Why a search stopped early.
enum Stop {
    /// The budget ran out.
    Budget,
    /// The event model cannot express something (the reason).
    GaveUp(String),
}

struct Search<'a, S: System> {
    system: &'a S,
    mode: RvfMode,
    budget: Budget,
    targets: Option<&'a BTreeSet<AssertId>>,
    out: &'a mut SearchResult,
    /// Every range accessed per object, for the overlap check.
    ranges: HashMap<u64, Vec<(i64, u64)>>,
    /// Initial values of globals (the same in every execution).
    fresh: HashMap<Var, Val>,
    /// `System::may_block`.
    blocking: bool,
}

/// Runs the search on `system`, adding to `out` (whose random walks may have run).
pub fn explore<S: System>(
    system: &S,
    mode: RvfMode,
    budget: Budget,
    targets: Option<&BTreeSet<AssertId>>,
    out: &mut SearchResult,
) {
    let mut search = Search {
        system,
        mode,
        budget,
        targets,
        out,
        ranges: HashMap::new(),
        fresh: HashMap::new(),
        blocking: system.may_block(),
    };
    if let Err(stop) = search.run() {
        search.out.complete = false;
        if let Stop::GaveUp(why) = stop {
            search.out.unsupported.insert(Abandon::RvfGaveUp(why));
        }
    }
}

impl<S: System> Search<'_, S> {
    fn all_found(&self) -> bool {
        self.targets
            .is_some_and(|t| t.iter().all(|a| self.out.violations.contains_key(a)))
    }

    fn over_budget(&self) -> bool {
        self.out.executions >= self.budget.executions
            || self.budget.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn run(&mut self) -> Result<(), Stop> {
        let root = Node {
            order: Vec::new(),
            gw: HashMap::new(),
            forbidden: HashMap::new(),
        };
        let mut stack = vec![self.enter(root, &mut [])?];
        while let Some(top) = stack.last_mut() {
            if self.all_found() {
                return Ok(());
            }
            if self.over_budget() {
                return Err(Stop::Budget);
            }
            if top.gi < top.groups.len() {
                let group = top.groups[top.gi].clone();
                top.gi += 1;
                if let Some(node) = self.child(top, group)? {
                    top.children += 1;
                    let frame = self.enter(node, &mut stack)?;
                    stack.push(frame);
                }
            } else if top.busy {
                finish_candidate(top, self.blocking);
            } else if top.ci < top.cands.len() {
                self.start_candidate(top);
            } else {
                if top.children == 0 && !top.pruned {
                    self.out.executions += 1;
                }
                stack.pop();
            }
        }
        Ok(())
    }

    /// Begins processing candidate `ci`: its groups of sources (or alternatives).
    fn start_candidate(&self, f: &mut Frame) {
        let t = f.cands[f.ci];
        let End::Open(e) = &f.ends[t] else {
            unreachable!("candidates are open threads")
        };
        let id = (t, f.evs[t].len());
        f.had_c = f.forbidden.contains_key(&id);
        f.signal = false;
        f.busy = true;
        f.gi = 0;
        // An input's alternative `a` is written `Some((usize::MAX, a))`, for the causal map.
        let forbidden = f.forbidden.get(&id);
        f.pruned |= forbidden.is_some();
        f.groups = match e.read {
            None => (0..e.alts)
                .map(|a| Some((usize::MAX, a)))
                .filter(|a| !forbidden.is_some_and(|c| c.contains(a)))
                .map(|a| vec![a])
                .collect(),
            Some(var) => self.groups(f, id, var, e.lock),
        };
    }

    /// The sources of a read of `var` not forbidden by the causal map, grouped (by value,
    /// or one per group).
    fn groups(&self, f: &Frame, id: EvId, var: Var, lock: bool) -> Vec<Vec<Src>> {
        let forbidden = f.forbidden.get(&id);
        let mut all: Vec<(Src, Val)> = vec![(None, f.fresh[&var].clone())];
        for (t, evs) in f.evs.iter().enumerate() {
            for (k, e) in evs.iter().enumerate() {
                if e.terminal {
                    continue;
                }
                for (v, val) in &e.writes {
                    if *v == var {
                        all.push((Some((t, k)), val.clone()));
                    }
                }
            }
        }
        all.retain(|(s, v)| {
            !forbidden.is_some_and(|c| c.contains(s)) && (!lock || *v == Val::Bytes(FREE.to_vec()))
        });
        let mut groups: Vec<(Val, Vec<Src>)> = Vec::new();
        for (s, v) in all {
            match groups.iter_mut().find(|(w, _)| *w == v) {
                Some((_, g)) if self.mode == RvfMode::Value => g.push(s),
                _ => groups.push((v, vec![s])),
            }
        }
        groups.into_iter().map(|(_, g)| g).collect()
    }

    /// The call for the current candidate reading from `group` (or taking that alternative),
    /// if the witness search realises it.
    fn child(&self, f: &Frame, group: Vec<Src>) -> Result<Option<Node>, Stop> {
        let t = f.cands[f.ci];
        let End::Open(e) = &f.ends[t] else {
            unreachable!("candidates are open threads")
        };
        let id = (t, f.evs[t].len());
        let mut e = e.clone();
        let mut gw = f.gw.clone();
        if e.read.is_some() {
            e = with_group(e, &group, f);
            gw.insert(id, group);
        } else {
            e.alt = group[0].map_or(0, |(_, a)| a);
        }
        let mut evs = f.evs.clone();
        evs[t].push(e);
        let finished: Vec<bool> = f.ends.iter().map(|x| matches!(x, End::Finished)).collect();
        let order = verify(&evs, &gw, &finished, &f.order, self.budget.deadline)?;
        Ok(order.map(|order| Node {
            order,
            gw,
            forbidden: f.forbidden.clone(),
        }))
    }

    /// Replays `node`'s schedule, extends it with every event that is not a read, signals the
    /// ancestors in `stack` whose reads gained a new source, and lists the enabled reads.
    fn enter(&mut self, node: Node, stack: &mut [Frame]) -> Result<Frame, Stop> {
        let mut run = self.replay(&node)?;
        self.extend(&mut run)?;
        Ok(self.frame(run, node, stack))
    }
}

/// Ends the current candidate: its sources so far are forbidden to the later siblings, and
/// without a new source (or after an input) the later siblings are skipped (Lemma 1).
///
/// Soundness: Lemma 1 (and the stop after an input) assume every maximal execution runs every
/// enabled read. When threads may block (`blocking`: a mutex held for good, an atomic section
/// that never ends because its thread stopped), a read may never run; then the siblings are
/// all explored, with the causal map alone (whose proof needs no such assumption: the first
/// of the enabled reads an execution runs reads from the trace).
fn finish_candidate(f: &mut Frame, blocking: bool) {
    let t = f.cands[f.ci];
    let id = (t, f.evs[t].len());
    f.ci += 1;
    f.busy = false;
    f.groups.clear();
    f.gi = 0;
    let End::Open(e) = &f.ends[t] else {
        return;
    };
    let Some(var) = e.read else {
        if blocking {
            let every = (0..e.alts).map(|a| Some((usize::MAX, a))).collect();
            f.forbidden.insert(id, every);
        } else {
            f.ci = f.cands.len();
        }
        return;
    };
    let mut tried: Vec<Src> = vec![None];
    for (u, evs) in f.evs.iter().enumerate() {
        for (k, w) in evs.iter().enumerate() {
            if !w.terminal && w.writes.iter().any(|(v, _)| *v == var) {
                tried.push(Some((u, k)));
            }
        }
    }
    f.forbidden.insert(id, tried);
    if !f.had_c && !f.signal && !blocking {
        f.ci = f.cands.len();
    }
}

/// A pending read given its group: a trylock writes only if the group is of `free` writes.
fn with_group(mut e: Ev, group: &[Src], f: &Frame) -> Ev {
    if let (Some(Var::Mutex(m)), false) = (e.read, e.lock) {
        let free = group.first().is_some_and(|s| match s {
            None => true,
            Some((u, k)) => f.evs[*u][*k]
                .writes
                .iter()
                .any(|(_, v)| *v == Val::Bytes(FREE.to_vec())),
        });
        if free {
            e.writes = vec![(Var::Mutex(m), Val::Bytes(HELD.to_vec()))];
        }
    }
    e
}

/// The state of a replay: the system state after the schedule so far (terminal events left
/// out), the events, and the path for witnesses.
struct Run<S: System> {
    state: S::State,
    evs: Vec<Vec<Ev>>,
    order: Vec<(Tid, usize)>,
    path: Vec<(Tid, usize, StepInfo)>,
    /// The last write of each variable (for the check that reads read a good write).
    last: HashMap<Var, Src>,
}

impl<S: System> Search<'_, S> {
    fn replay(&mut self, node: &Node) -> Result<Run<S>, Stop> {
        let mut run = Run {
            state: self.system.initial(),
            evs: Vec::new(),
            order: Vec::new(),
            path: Vec::new(),
            last: HashMap::new(),
        };
        for &(t, alt) in &node.order {
            if !self.system.enabled(&run.state).contains(&t) {
                return Err(Stop::GaveUp(
                    "a schedule (its witness did not replay: an internal error)".into(),
                ));
            }
            let id = (t, run.evs.get(t).map_or(0, Vec::len));
            let e = self.exec(&mut run, t, alt)?;
            if let (Some(var), Some(gw)) = (e.read, node.gw.get(&id)) {
                let src = run.last.get(&var).copied().flatten();
                if !gw.contains(&src) {
                    return Err(Stop::GaveUp(
                        "a schedule (a read did not read a good write: an internal error)".into(),
                    ));
                }
            }
            self.push(&mut run, t, alt, e);
        }
        Ok(run)
    }

    fn push(&self, run: &mut Run<S>, t: Tid, alt: usize, e: Ev) {
        if run.evs.len() <= t {
            run.evs.resize(t + 1, Vec::new());
        }
        let id = (t, run.evs[t].len());
        if !e.terminal {
            for (v, _) in &e.writes {
                run.last.insert(*v, Some(id));
            }
        }
        run.evs[t].push(e);
        run.order.push((t, alt));
    }

    /// Runs thread `t`'s next step with alternative `alt` on the run's state (unless the step
    /// ends the execution: then what it means is recorded and the state is kept).
    fn exec(&mut self, run: &mut Run<S>, t: Tid, alt: usize) -> Result<Ev, Stop> {
        let sys = self.system;
        let Next::Op(op) = sys.next_op(&run.state, t) else {
            return Err(Stop::GaveUp("a schedule (a thread ended early)".into()));
        };
        self.check_ranges(&op)?;
        let id = (t, run.evs.get(t).map_or(0, Vec::len));
        let mut e = Ev::pending(&op, id, sys.alternatives(&run.state, t));
        e.alt = alt;
        let mut next = run.state.clone();
        let info = sys.step(&mut next, t, alt);
        self.out.steps += 1;
        if matches!(info.kind, StepKind::Input(_)) {
            self.out.restricted_inputs = true;
        }
        let status = sys.status(&next);
        let terminal = match &status {
            ExecStatus::Running | ExecStatus::Deadlock => false,
            ExecStatus::Done => {
                (0..thread_count(sys, &next)).any(|u| sys.next_op(&next, u) != Next::Finished)
            }
            _ => true,
        };
        if terminal {
            run.path.push((t, alt, info));
            record_status(sys, &next, &status, &run.path, self.out);
            run.path.pop();
            e.terminal = true;
            e.writes.clear();
            return Ok(e);
        }
        self.resolve_writes(&mut e, &op, &info, &next);
        run.state = next;
        run.path.push((t, alt, info));
        Ok(e)
    }

    /// Fills in the values an event wrote, from the state after it.
    fn resolve_writes(&self, e: &mut Ev, op: &Op, info: &StepInfo, after: &S::State) {
        match (op, &info.kind) {
            (Op::TryLock(m), StepKind::Lock(_)) => {
                e.writes = vec![(Var::Mutex(*m), Val::Bytes(HELD.to_vec()))];
            }
            (Op::Update(_), StepKind::Update { written: None, .. }) => e.writes.clear(),
            (_, StepKind::Spawn { child, .. }) => e.spawned = Some(*child),
            _ => {}
        }
        for (v, val) in &mut e.writes {
            match v {
                Var::Mem(l) => *val = Val::Bytes(self.system.content(after, l)),
                Var::Threads => *val = count(e.spawned.map_or(0, |c| c + 1)),
                _ => {}
            }
        }
    }

    /// Gives up when `op` accesses bytes another access of a different range touched.
    fn check_ranges(&mut self, op: &Op) -> Result<(), Stop> {
        match op {
            Op::Opaque(why) => return Err(Stop::GaveUp(why.clone())),
            // Soundness: an atomic section stops every other thread, so an event that is not
            // a read can no longer always be appended to a trace (the extension of step 1
            // would fix it before sections that may come first): not modelled.
            Op::AtomicBegin | Op::AtomicEnd => return Err(Stop::GaveUp("atomic sections".into())),
            _ => {}
        }
        for l in mem_locs(op) {
            let seen = self.ranges.entry(l.object).or_default();
            if seen.contains(&(l.offset, l.size)) {
                continue;
            }
            let overlaps = seen
                .iter()
                .any(|&(o, n)| o < l.offset + l.size as i64 && l.offset < o + n as i64);
            if overlaps {
                return Err(Stop::GaveUp(
                    "accesses of different sizes to the same bytes".into(),
                ));
            }
            seen.push((l.offset, l.size));
        }
        Ok(())
    }

    /// Step 1: runs every thread whose next event is not a read, as long as some can run.
    fn extend(&mut self, run: &mut Run<S>) -> Result<(), Stop> {
        let sys = self.system;
        loop {
            if sys.status(&run.state) != ExecStatus::Running {
                return Ok(());
            }
            let mut progress = false;
            for t in 0..thread_count(sys, &run.state) {
                if stopped(run, t) {
                    continue;
                }
                let Next::Op(op) = sys.next_op(&run.state, t) else {
                    continue;
                };
                self.check_ranges(&op)?;
                let id = (t, run.evs.get(t).map_or(0, Vec::len));
                let e = Ev::pending(&op, id, sys.alternatives(&run.state, t));
                if e.branches() {
                    continue;
                }
                // A join waits for its child; nothing else that is not a read waits. (Asked
                // again for each thread: a step may end the execution.)
                if sys.enabled(&run.state).contains(&t) {
                    let e = self.exec(run, t, 0)?;
                    self.push(run, t, 0, e);
                    progress = true;
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    /// The frame of a replayed and extended call: its candidates, and the signals to its
    /// ancestors.
    fn frame(&mut self, run: Run<S>, node: Node, stack: &mut [Frame]) -> Frame {
        let sys = self.system;
        let n = thread_count(sys, &run.state);
        let mut evs = run.evs;
        evs.resize(n.max(evs.len()), Vec::new());
        let running = sys.status(&run.state) == ExecStatus::Running;
        let mut ends = Vec::with_capacity(evs.len());
        for (t, list) in evs.iter().enumerate() {
            let end = if list.last().is_some_and(|e| e.terminal) || t >= n {
                End::Closed
            } else {
                match sys.next_op(&run.state, t) {
                    Next::Finished => End::Finished,
                    Next::Cut => {
                        self.out.cut = true;
                        End::Closed
                    }
                    Next::Op(op) => End::Open(Ev::pending(
                        &op,
                        (t, list.len()),
                        sys.alternatives(&run.state, t),
                    )),
                }
            };
            ends.push(end);
        }
        signal(stack, &evs, &ends);
        let mut cands: Vec<Tid> = if running {
            (0..ends.len())
                .filter(|&t| matches!(&ends[t], End::Open(e) if e.branches()))
                .collect()
        } else {
            Vec::new()
        };
        // Inputs first (nothing is left after them), then the reads without a causal-map
        // entry (whose loop may stop early).
        cands.sort_by_key(|&t| {
            let input = matches!(&ends[t], End::Open(e) if e.read.is_none());
            (!input, node.forbidden.contains_key(&(t, evs[t].len())))
        });
        let mut fresh = HashMap::new();
        for e in evs
            .iter()
            .flatten()
            .chain(ends.iter().filter_map(|x| match x {
                End::Open(e) => Some(e),
                _ => None,
            }))
        {
            for var in e.read.iter().chain(e.writes.iter().map(|(v, _)| v)) {
                if !fresh.contains_key(var) {
                    let v = self.fresh_value(&run.state, var);
                    fresh.insert(*var, v);
                }
            }
        }
        Frame {
            order: run.order,
            evs,
            ends,
            gw: node.gw,
            forbidden: node.forbidden,
            cands,
            ci: 0,
            busy: false,
            groups: Vec::new(),
            gi: 0,
            had_c: false,
            signal: false,
            children: 0,
            pruned: false,
            fresh,
        }
    }

    fn fresh_value(&mut self, s: &S::State, var: &Var) -> Val {
        match var {
            Var::Mem(l) if l.object & Loc::BY_THREAD == 0 => {
                if let Some(v) = self.fresh.get(var) {
                    return v.clone();
                }
                let v = self
                    .system
                    .fresh_content(s, l)
                    .map_or(Val::Unique(None), Val::Bytes);
                self.fresh.insert(*var, v.clone());
                v
            }
            Var::Mem(l) => self
                .system
                .fresh_content(s, l)
                .map_or(Val::Unique(None), Val::Bytes),
            Var::Mutex(_) | Var::Atomic => Val::Bytes(FREE.to_vec()),
            Var::Threads => count(1),
        }
    }
}

fn stopped<S: System>(run: &Run<S>, t: Tid) -> bool {
    run.evs
        .get(t)
        .and_then(|l| l.last())
        .is_some_and(|e| e.terminal)
}

/// How many threads `s` has.
fn thread_count<S: System>(sys: &S, s: &S::State) -> usize {
    sys.thread_count(s)
}

/// Whether event `e` comes after `r` in every execution: later in `r`'s thread, or in a
/// thread created (transitively) after `r`.
fn after(e: EvId, r: EvId, spawner: &[Option<EvId>]) -> bool {
    if e.0 == r.0 {
        return e.1 > r.1;
    }
    match spawner.get(e.0).copied().flatten() {
        Some(p) => p == r || after(p, r, spawner),
        None => false,
    }
}

fn spawners(evs: &[Vec<Ev>]) -> Vec<Option<EvId>> {
    let mut by = vec![None; evs.len()];
    for (t, list) in evs.iter().enumerate() {
        for (k, e) in list.iter().enumerate() {
            if let Some(c) = e.spawned {
                if c >= by.len() {
                    by.resize(c + 1, None);
                }
                by[c] = Some((t, k));
            }
        }
    }
    by
}

/// Step 2: an ancestor's read gains a signal when this call knows a write of its variable
/// (run, or next in its thread) that the ancestor did not know and that may come before it.
fn signal(stack: &mut [Frame], evs: &[Vec<Ev>], ends: &[End]) {
    let spawner = spawners(evs);
    for f in stack.iter_mut() {
        if f.signal || !f.busy {
            continue;
        }
        let t = f.cands[f.ci];
        let r = (t, f.evs[t].len());
        let End::Open(re) = &f.ends[t] else {
            continue;
        };
        let Some(var) = re.read else {
            continue;
        };
        let lock = re.lock;
        let known = |u: Tid| f.evs.get(u).map_or(0, Vec::len);
        let new_source = |e: &Ev, id: EvId| {
            id != r
                && !e.terminal
                && id.1 >= known(id.0)
                && !after(id, r, &spawner)
                && e.writes
                    .iter()
                    .any(|(v, val)| *v == var && (!lock || *val == Val::Bytes(FREE.to_vec())))
        };
        let mut found = evs
            .iter()
            .enumerate()
            .any(|(u, list)| list.iter().enumerate().any(|(k, e)| new_source(e, (u, k))));
        found |= ends.iter().enumerate().any(|(u, x)| match x {
            End::Open(e) => new_source(e, (u, evs[u].len())),
            _ => false,
        });
        f.signal |= found;
    }
}

/// Algorithm 1 (VerifySC): a schedule of every event of `evs` in which each read reads one of
/// its good writes, found by a depth-first search over witness states (events run per
/// thread, and the last write of each variable), guided by `guide` (its events first, in its
/// order). `Err` when the deadline passes.
fn verify(
    evs: &[Vec<Ev>],
    gw: &HashMap<EvId, Vec<Src>>,
    finished: &[bool],
    guide: &[(Tid, usize)],
    deadline: Option<Instant>,
) -> Result<Option<Vec<(Tid, usize)>>, Stop> {
    let p = Problem::new(evs, gw, finished, guide);
    p.search(deadline)
}

/// The fixed data of one witness search.
struct Problem<'a> {
    evs: &'a [Vec<Ev>],
    gw: &'a HashMap<EvId, Vec<Src>>,
    finished: &'a [bool],
    /// Position of each event in the guide (events not in it last).
    rank: HashMap<EvId, usize>,
    vars: HashMap<Var, usize>,
    /// The reads of each variable (by index), for the "held" rule.
    reads: Vec<Vec<EvId>>,
    spawner: Vec<Option<EvId>>,
    /// Atomic-section depth of each thread after each prefix length.
    depth: Vec<Vec<i32>>,
}

/// A witness state: events run per thread, last write per variable; and its trace.
struct WState {
    lens: Vec<usize>,
    active: Vec<Src>,
    parent: usize,
    event: Option<EvId>,
}

impl<'a> Problem<'a> {
    fn new(
        evs: &'a [Vec<Ev>],
        gw: &'a HashMap<EvId, Vec<Src>>,
        finished: &'a [bool],
        guide: &[(Tid, usize)],
    ) -> Problem<'a> {
        let mut rank = HashMap::new();
        let mut seen = vec![0usize; evs.len()];
        for (i, &(t, _)) in guide.iter().enumerate() {
            if t < seen.len() {
                rank.insert((t, seen[t]), i);
                seen[t] += 1;
            }
        }
        let mut vars = HashMap::new();
        let mut reads: Vec<Vec<EvId>> = Vec::new();
        for (t, list) in evs.iter().enumerate() {
            for (k, e) in list.iter().enumerate() {
                for v in e.read.iter().chain(e.writes.iter().map(|(v, _)| v)) {
                    let n = vars.len();
                    let i = *vars.entry(*v).or_insert(n);
                    if i == reads.len() {
                        reads.push(Vec::new());
                    }
                }
                if let Some(v) = e.read {
                    reads[vars[&v]].push((t, k));
                }
            }
        }
        let depth = evs
            .iter()
            .map(|list| {
                let mut d = vec![0i32];
                for e in list {
                    let step = if e.terminal { 0 } else { i32::from(e.atomic) };
                    d.push(d.last().copied().unwrap_or(0) + step);
                }
                d
            })
            .collect();
        Problem {
            evs,
            gw,
            finished,
            rank,
            vars,
            reads,
            spawner: spawners(evs),
            depth,
        }
    }

    fn search(&self, deadline: Option<Instant>) -> Result<Option<Vec<(Tid, usize)>>, Stop> {
        let n = self.evs.len();
        let mut arena = vec![WState {
            lens: vec![0; n],
            active: vec![None; self.vars.len()],
            parent: usize::MAX,
            event: None,
        }];
        let mut seen: HashSet<(Vec<usize>, Vec<Src>)> = HashSet::new();
        let mut todo = vec![0usize];
        let mut visits = 0u64;
        while let Some(i) = todo.pop() {
            visits += 1;
            if visits.is_multiple_of(256) && deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Stop::Budget);
            }
            if (0..n).all(|t| arena[i].lens[t] == self.evs[t].len()) {
                return Ok(Some(self.trace(&arena, i)));
            }
            let mut next = self.executable(&arena[i]);
            // Greedy: an event that writes nothing never hurts to run now.
            if let Some(&quiet) = next.iter().find(|&&(t, k)| self.quiet((t, k))) {
                next = vec![quiet];
            }
            next.sort_by_key(|id| {
                std::cmp::Reverse(self.rank.get(id).copied().unwrap_or(usize::MAX))
            });
            for id in next {
                let s = self.apply(&arena[i], id, i);
                if seen.insert((s.lens.clone(), s.active.clone())) {
                    arena.push(s);
                    todo.push(arena.len() - 1);
                }
            }
        }
        Ok(None)
    }

    fn quiet(&self, (t, k): EvId) -> bool {
        let e = &self.evs[t][k];
        e.terminal || e.writes.is_empty()
    }

    fn trace(&self, arena: &[WState], mut i: usize) -> Vec<(Tid, usize)> {
        let mut out = Vec::new();
        while let Some((t, k)) = arena[i].event {
            out.push((t, self.evs[t][k].alt));
            i = arena[i].parent;
        }
        out.reverse();
        out
    }

    fn apply(&self, s: &WState, (t, k): EvId, parent: usize) -> WState {
        let mut lens = s.lens.clone();
        lens[t] += 1;
        let mut active = s.active.clone();
        let e = &self.evs[t][k];
        if !e.terminal {
            for (v, _) in &e.writes {
                active[self.vars[v]] = Some((t, k));
            }
        }
        WState {
            lens,
            active,
            parent,
            event: Some((t, k)),
        }
    }

    /// The next events of `s`'s threads that can run in it.
    fn executable(&self, s: &WState) -> Vec<EvId> {
        let inside: Option<Tid> = (0..self.evs.len()).find(|&u| self.depth[u][s.lens[u]] > 0);
        (0..self.evs.len())
            .filter(|&t| s.lens[t] < self.evs[t].len())
            .filter(|&t| inside.is_none_or(|u| u == t))
            .map(|t| (t, s.lens[t]))
            .filter(|&id| self.can_run(s, id))
            .collect()
    }

    fn can_run(&self, s: &WState, (t, k): EvId) -> bool {
        let e = &self.evs[t][k];
        if k == 0 {
            if let Some(Some((p, j))) = self.spawner.get(t) {
                if s.lens[*p] <= *j {
                    return false;
                }
            }
        }
        if let Some(c) = e.join {
            let done = c < self.evs.len() && s.lens[c] == self.evs[c].len();
            if !done || !self.finished.get(c).copied().unwrap_or(false) {
                return false;
            }
        }
        if let Some(v) = e.read {
            let source = s.active[self.vars[&v]];
            if !self.gw.get(&(t, k)).is_some_and(|g| g.contains(&source)) {
                return false;
            }
        }
        e.terminal
            || e.writes
                .iter()
                .all(|(v, _)| !self.held(s, self.vars[v], (t, k)))
    }

    /// Whether a pending read of variable `v` other than `except` has all its good writes
    /// run (another write now would take its value away for good).
    fn held(&self, s: &WState, v: usize, except: EvId) -> bool {
        self.reads[v].iter().any(|&(u, j)| {
            (u, j) != except
                && s.lens[u] <= j
                && self.gw.get(&(u, j)).is_some_and(|g| {
                    g.iter().all(|src| match src {
                        None => true,
                        Some((w, i)) => s.lens[*w] > *i,
                    })
                })
        })
    }
}
