//! Data races (issue 19): two accesses to the same memory from different threads, at least one
//! a write, at least one not atomic, that no happens-before order separates and no common lock
//! excludes. One report per memory location, with every access that takes part in a race
//! there.
//!
//! - `touch`: what each instruction reads and writes (objects and bytes, atomic or not).
//! - `sharing`: which objects more than one thread may reach at all.
//! - `ownership`: heap blocks each instance of a thread has its own copy of.
//! - `handover`: what the code that allocates a block does to it before handing it over.
//! - `contexts`: in which thread, where, and holding which locks each access runs (functions
//!   analysed on their own run at their calls).
//! - `refine`: the objects an access through a pointer touches in its inlined activation (a
//!   parameter is the argument of its call).
//! - `order`: creation, joins, join loops, published flags, semaphore hand-overs and barrier
//!   phases as a must-happen-before order.
//! - `creation`: threads that live inside one critical section of their creator.
//! - `release`: threads created inside a critical section, which take its lock only after the
//!   creator gives it up.
//!
//! Invariant (soundness): a pair of conflicting accesses is left out only with an argument: a
//! lock both hold for sure (exclusively, or one of them shared with the other exclusive),
//! an order of `order` in one direction, both atomic, the same thread that runs once, both in
//! the exit-time code of the one exit, two instances of a thread on the blocks each has its own
//! copy of (`ownership`), an access before its block is handed over through ordered accesses
//! (`handover`), or memory only one thread can reach (`sharing`; the C
//! library's hidden state is reached by every thread). Anything unknown (an address the analysis
//! lost, code it does not see, a budget) keeps the pair.
//!
//! `find(facts, fixpoint)` (for `--check race`, README "Data races") returns a `RaceCheck`: one
//! `Race` per memory location with its accesses, the pairs that may race and the reason in words.
//! It groups accesses into classes (thread, locks, kind: interchangeable in every pair check),
//! checks pairs per class (same thread that runs once: no race; a common exclusive lock, or both
//! shared; both atomic; an order), then groups per location and names memory (`Layout::path`:
//! `dev.count`, `buf[*]`). A check that could not finish says so (`RaceCheck::incomplete`), so
//! nothing is race-free then.

mod contexts;
mod creation;
mod handover;
mod order;
mod ownership;
mod refine;
mod release;
mod sharing;
pub mod touch;

use self::contexts::{Contexts, Ctx, Place};
use self::order::Order;
use self::sharing::Sharing;
use self::touch::{AccessVia, At, Touch};
use super::compose::Fixpoint;
use crate::facts::Facts;
use crate::ir::lib::HiddenState;
use crate::ir::{ObjId, ObjectKind, Program, Span};
use crate::threads::{NodeId, Thread};
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub use touch::AccessKind;

/// One access of a race, as the report shows it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RaceAccess {
    /// Where it is in the source.
    pub span: Option<Span>,
    /// Read or write.
    pub kind: AccessKind,
    /// Whether it is atomic.
    pub atomic: bool,
    /// The thread that runs it (`main`, `worker`, `any thread`).
    pub thread: String,
    /// The function whose code it is.
    pub function: String,
    /// The locks it holds for sure (a read lock as `rw (read)`).
    pub locks: Vec<String>,
    /// How it accesses the memory when not by a plain load or store (`memcpy`, ``a call of
    /// `fill` (assumed to touch what its arguments point to)``, `inline assembly`).
    pub how: Option<String>,
}

/// The memory of a race, as the report names it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Memory {
    /// `dev.count`, `buf[*]`, `heap@a.c:12.len`; `memory reached through lost addresses` when
    /// both accesses go through addresses the analysis lost.
    pub name: String,
    /// Where the object is declared or allocated, when known.
    pub span: Option<Span>,
}

/// A memory location that threads may access at once.
#[derive(Clone, Debug)]
pub struct Race {
    /// The memory.
    pub memory: Memory,
    /// Every access that takes part, sorted by place (the human output shortens the list,
    /// the data does not).
    /// Shared: a race of a location many merged pointers may reach lists thousands of them, and
    /// many races list the same ones.
    pub accesses: Vec<Arc<RaceAccess>>,
    /// The first pairs of `accesses` that may race (indices, the first not after the second;
    /// at most `MAX_PAIRS`), for the notes of the human output.
    pub pairs: Vec<(usize, usize)>,
    /// Every pair that may race, as products: each access of the first set may race with each
    /// of the second (indices into `accesses`, sorted). Complete, and small where `pairs` would
    /// be quadratic.
    pub pair_groups: Vec<(Vec<usize>, Vec<usize>)>,
    /// Why no lock and no order excludes the first pair, in words.
    pub reason: String,
}

/// What the race check found.
#[derive(Clone, Debug, Default)]
pub struct RaceCheck {
    /// One per memory location.
    pub races: Vec<Race>,
    /// Declared functions assumed to touch only what their arguments point to.
    pub assumed: BTreeSet<String>,
    /// Functions handed to code outside the program that the check ran in the program's own
    /// threads only (the assumption of `contexts::callback_contexts`), by name.
    pub callbacks_in_threads: Vec<String>,
    /// Accesses to shared memory considered.
    pub accesses: usize,
    /// Why the check could not consider every execution: then no memory is race-free,
    /// whatever `races` lists.
    pub incomplete: Option<Incomplete>,
}

/// Why the race check could not consider every execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incomplete {
    /// The analysis stopped before its fixpoint, so it may not know every thread.
    StoppedEarly,
    /// The analysis did not finish within the `--timeout`.
    TimedOut {
        /// The timeout.
        budget: std::time::Duration,
    },
}

/// `groups`, products of sets of accesses, with the products that share a side joined: `A x B`
/// and `A x C` are `A x (B u C)`. The pairs are the same; a location that many classes reach
/// lists far fewer groups (pigz's `threads`: 146,064 before).
fn merge_products(mut groups: Vec<(Vec<usize>, Vec<usize>)>) -> Vec<(Vec<usize>, Vec<usize>)> {
    loop {
        let before = groups.len();
        for side in [0, 1] {
            let mut by: BTreeMap<Vec<usize>, BTreeSet<usize>> = BTreeMap::new();
            for (a, b) in groups.drain(..) {
                let (key, other) = if side == 0 { (a, b) } else { (b, a) };
                by.entry(key).or_default().extend(other);
            }
            groups = (by.into_iter())
                .map(|(key, other)| {
                    let other: Vec<usize> = other.into_iter().collect();
                    if key <= other {
                        (key, other)
                    } else {
                        (other, key)
                    }
                })
                .collect();
            groups.sort_unstable();
            groups.dedup();
        }
        if groups.len() == before {
            return groups;
        }
    }
}

/// An access as reports tell it apart: its code, how it accesses, and its class (accesses of
/// one instruction in contexts of the same class are one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Acc {
    func: crate::ir::FuncId,
    span: Option<Span>,
    via: AccessVia,
    /// Its class (`Class`).
    class: usize,
}

/// What decides whether an access may race with another: accesses of one class are
/// interchangeable in every pair check, so pairs are checked per class, not per access.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Class {
    thread: Option<usize>,
    excl: BTreeSet<u32>,
    shared: BTreeSet<u32>,
    kind: AccessKind,
    atomic: bool,
    /// The order points that follow it (`Order::follows`), interned.
    follows: usize,
    /// The last order point before it (`Order::precedes`).
    precedes: Option<usize>,
    /// Inside the one run of this `pthread_once` routine: two such accesses never race.
    once: Option<crate::ir::FuncId>,
    /// Inside the exit-time code of the process's one exit: two such accesses never race.
    at_exit: bool,
}

use crate::limits::{RACE_MAX_COUNTERPARTS as MAX_COUNTERPARTS, RACE_MAX_PAIRS as MAX_PAIRS};

/// The accesses of one object kept apart: the place in it, the class, and what else a pair
/// check needs to know of them.
type Group = (At, usize, Mark);

/// What sets a group of accesses of one object apart for the pair check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    /// Nothing.
    Plain,
    /// Before the block is handed over (`handover`).
    BeforeHandover,
    /// The running thread's own copy of a thread-local variable (`touch::OwnCopies`).
    OwnCopy,
}

/// Two groups of accesses (each of one class) that may race.
type GroupPair<'a> = (&'a [usize], &'a [usize]);

/// A location of a report: an object and where in it (`None`: anywhere), or memory whose
/// address was lost (`obj` is `None`).
type LocKey = (Option<ObjId>, Option<At>);

/// Finds the races of the program under the threads of `fix`.
pub fn find<D>(facts: &Facts<'_>, fix: &Fixpoint<D>) -> RaceCheck {
    let program = facts.program;
    let threads = &fix.threads;
    let reached: Vec<Vec<bool>> = fix.results.iter().map(|r| r.reached.clone()).collect();
    let sharing = Sharing::of(facts);
    let owned = ownership::Owned::of(facts, threads);
    let handover = handover::Handover::of(facts);
    // Per object of `handover`: the channel accesses (role, class, parts, through a lost
    // address).
    let mut channels: BTreeMap<ObjId, Vec<Channel>> = BTreeMap::new();
    let contexts = Contexts::of(facts, threads, &reached);
    let order = Order::of(facts, threads, &reached, &contexts.locks);
    let mut classes = Classes::default();
    let mut accs: Vec<Acc> = Vec::new();
    let mut acc_ids: HashMap<Acc, usize> = HashMap::default();
    // Per object, per (place in it, class, before a hand-over): the accesses.
    let mut by_obj: BTreeMap<ObjId, BTreeMap<Group, Vec<usize>>> = BTreeMap::new();
    let mut lost: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    // Per piece of the C library's hidden state, per class: the accesses.
    let mut by_state: BTreeMap<HiddenState, BTreeMap<usize, Vec<usize>>> = BTreeMap::new();
    let mut assumed = BTreeSet::new();
    let kept = touch::StreamKept::of(facts);
    let own = touch::OwnCopies::of(program);
    let mut narrow = refine::Narrow::new(facts, threads);
    for (k, t) in threads.iter().enumerate() {
        for (node, func, idx, inst) in reached_insts(program, t, &reached[k]) {
            let nd = &t.cfg.nodes[node.index()];
            let block = nd.block;
            let at = (func, block, idx);
            let before = handover.before(at);
            let roles = handover.channels(at);
            let mut touches = touch::touches(facts, &kept, &own, func, inst);
            for touch in &mut touches {
                narrow.touch(k, nd.ctx, func, touch);
            }
            if touches.is_empty() {
                continue;
            }
            let ctxs = contexts.of_access(threads, k, node, idx);
            for Touch {
                kind,
                atomic,
                parts,
                unknown,
                hidden,
                via,
                own_copy,
                ptr: _,
            } in touches
            {
                let parts: Vec<_> = (parts.into_iter())
                    .filter(|p| sharing.shared(p.obj) && touch::writable(program, p.obj))
                    // Soundness: the creator's accesses of a block before it hands the block
                    // to the one thread that gets it (`ownership`).
                    .filter(|p| !owned.before_handover(func, block, idx, p.obj))
                    .collect();
                let ctxs_classes: Vec<usize> = if roles.is_empty() {
                    Vec::new()
                } else {
                    (ctxs.iter())
                        .map(|c| classes.of(&order, c, kind, atomic))
                        .collect()
                };
                for &(o, role) in roles {
                    let matches = match role {
                        handover::Role::Store => kind == AccessKind::Write,
                        handover::Role::Load => kind == AccessKind::Read,
                    };
                    if matches && via == AccessVia::Direct {
                        for &class in &ctxs_classes {
                            channels.entry(o).or_default().push(Channel {
                                class,
                                parts: parts.clone(),
                                unknown,
                            });
                        }
                    }
                }
                // Soundness: the library's hidden state is one location that every thread
                // reaches (the library's own memory), so it is shared without `sharing`.
                if parts.is_empty() && !unknown && hidden.is_none() {
                    continue;
                }
                if let AccessVia::Assumed(g) = via {
                    assumed.insert(program.funcs[g.index()].name.clone());
                }
                for c in &ctxs {
                    let class = classes.of(&order, c, kind, atomic);
                    let acc = Acc {
                        func,
                        span: inst.span,
                        via,
                        class,
                    };
                    let id = *acc_ids.entry(acc).or_insert_with(|| {
                        accs.push(acc);
                        accs.len() - 1
                    });
                    for p in &parts {
                        let slot = by_obj.entry(p.obj).or_default();
                        let mark = if own_copy {
                            Mark::OwnCopy
                        } else if before == Some(p.obj) {
                            Mark::BeforeHandover
                        } else {
                            Mark::Plain
                        };
                        let list = slot.entry((p.at, class, mark)).or_default();
                        if list.last() != Some(&id) {
                            list.push(id);
                        }
                    }
                    if unknown {
                        let list = lost.entry(class).or_default();
                        if list.last() != Some(&id) {
                            list.push(id);
                        }
                    }
                    if let Some(state) = hidden {
                        let list = by_state.entry(state).or_default().entry(class).or_default();
                        if list.last() != Some(&id) {
                            list.push(id);
                        }
                    }
                }
            }
        }
    }
    for list in (by_obj.values_mut().flat_map(|g| g.values_mut()))
        .chain(lost.values_mut())
        .chain(by_state.values_mut().flat_map(|g| g.values_mut()))
    {
        list.sort_unstable();
        list.dedup();
    }
    let mut check = Pairs {
        program,
        threads,
        accs: &accs,
        classes: &classes,
        weak_flags: &order.weak_flags,
        memo: HashMap::default(),
        display_of: std::cell::RefCell::new(vec![None; accs.len()]),
        displays: std::cell::RefCell::new(Displays::default()),
        lock_names: std::cell::RefCell::new(HashMap::default()),
        inherited: creation::Inherited::of(facts, threads, &contexts.locks),
    };
    // Per location, the pairs of groups (each a list of accesses of one class) that may race.
    let mut found: BTreeMap<LocKey, Vec<GroupPair>> = BTreeMap::new();
    let mut ordered: BTreeMap<ObjId, bool> = BTreeMap::new();
    for (&obj, groups) in &by_obj {
        let groups: Vec<(&Group, &Vec<usize>)> = groups.iter().collect();
        for (i, &(&(ax, cx, px), xs)) in groups.iter().enumerate() {
            for &(&(ay, cy, py), ys) in &groups[i..] {
                // Soundness: an access before its block is handed over, when the block's
                // address moves only through ordered accesses (`handover`).
                // Soundness: two threads' own copies of a thread-local variable are two
                // objects (C11 6.2.4p4; one thread's two accesses are in program order).
                if px == Mark::OwnCopy && py == Mark::OwnCopy {
                    continue;
                }
                if (px == Mark::BeforeHandover || py == Mark::BeforeHandover)
                    && *ordered
                        .entry(obj)
                        .or_insert_with(|| channels_ordered(program, &mut check, &channels, obj))
                {
                    continue;
                }
                let (tx, ty) = (classes.list[cx].thread, classes.list[cy].thread);
                // Soundness: each instance of the thread touches its own block (`ownership`).
                if let (Some(a), Some(b)) = (tx, ty) {
                    if a == b && owned.per_instance(obj, a) {
                        continue;
                    }
                }
                if touch::overlap(program, obj, ax, ay) && check.may_race(cx, cy) {
                    // A block without a layout has no field names to report by: its places
                    // (exact offsets) decide the pairs, and one report names the block.
                    let at = match program.objects[obj.index()].layout {
                        Some(_) => specific(ax, ay),
                        None => None,
                    };
                    let key = (Some(obj), at);
                    found.entry(key).or_default().push((xs, ys));
                }
            }
        }
    }
    // Accesses through lost addresses touch any exposed object, and each other: one report
    // for all of them, which names the objects they may touch (a report per object would
    // repeat them in every one).
    let exposed = &facts.memory.pts.exposed;
    let mut lost_ids: BTreeSet<usize> = BTreeSet::new();
    let mut others: BTreeSet<usize> = BTreeSet::new();
    let mut touched: BTreeSet<ObjId> = BTreeSet::new();
    let mut counted: BTreeSet<(ObjId, At, usize)> = BTreeSet::new();
    let copies = EscapedCopies::of(program, threads);
    for (&cu, us) in &lost {
        let mut racing = false;
        for obj in exposed.iter().filter(|o| by_obj.contains_key(o)) {
            for (&(ay, cy, mark), ys) in &by_obj[obj] {
                // Soundness: a lost address reaches a thread's own copy of a thread-local
                // variable only if that thread may let its copy's address out.
                if mark == Mark::OwnCopy && !copies.may_escape(*obj, classes.list[cy].thread) {
                    continue;
                }
                if check.may_race(cu, cy) {
                    racing = true;
                    touched.insert(*obj);
                    if counted.insert((*obj, ay, cy)) {
                        others.extend(ys.iter().copied());
                    }
                }
            }
        }
        if racing {
            lost_ids.extend(us.iter().copied());
        }
    }
    let lost: Vec<(&usize, &Vec<usize>)> = lost.iter().collect();
    for (i, &(&cu, us)) in lost.iter().enumerate() {
        for &(&cv, vs) in &lost[i..] {
            if check.may_race(cu, cv) {
                lost_ids.extend(us.iter().chain(vs).copied());
            }
        }
    }
    let mut races: Vec<Race> = (found.into_iter())
        .map(|(key, groups)| check.report(&contexts, key, &groups, None))
        .collect();
    // The library's hidden state: every call that uses one piece of it against every other
    // (no byte ranges: each piece is one location).
    for (&state, groups) in &by_state {
        let groups: Vec<(&usize, &Vec<usize>)> = groups.iter().collect();
        let mut pairs: Vec<GroupPair> = Vec::new();
        for (i, &(&cx, xs)) in groups.iter().enumerate() {
            for &(&cy, ys) in &groups[i..] {
                if check.may_race(cx, cy) {
                    pairs.push((xs, ys));
                }
            }
        }
        if !pairs.is_empty() {
            races.push(check.hidden_report(&contexts, state, &pairs));
        }
    }
    if !lost_ids.is_empty() {
        races.push(check.lost_report(&contexts, &lost_ids, &others, &touched));
    }
    races.sort_by(|a, b| {
        let first = |r: &Race| r.accesses.first().map(|x| x.span);
        (first(a), &a.memory).cmp(&(first(b), &b.memory))
    });
    // Soundness: a fixpoint that stopped early may not have found every thread or every
    // reached node.
    let incomplete = (fix.gave_up || fix.over_memory).then_some(Incomplete::StoppedEarly);
    let mut callbacks_in_threads: Vec<String> = (contexts.callbacks_in_threads.iter())
        .map(|f| program.funcs[f.index()].name.clone())
        .collect();
    callbacks_in_threads.sort();
    RaceCheck {
        races,
        assumed,
        callbacks_in_threads,
        accesses: accs.len(),
        incomplete,
    }
}

/// Which threads may let the address of their own copy of a thread-local variable out: those
/// that may run an `llvm.threadlocal.address` of it whose result goes anywhere but the address
/// of accesses (`ThreadLocalAddr::escapes`).
struct EscapedCopies {
    /// Per thread-local object: the functions that let its copy out.
    by_obj: BTreeMap<ObjId, BTreeSet<crate::ir::FuncId>>,
    /// Per thread: the functions its code runs (inlined in its CFG).
    funcs: Vec<BTreeSet<crate::ir::FuncId>>,
    /// The functions of code analysed on its own, which may run in any thread.
    anywhere: BTreeSet<crate::ir::FuncId>,
}

impl EscapedCopies {
    fn of(program: &Program, threads: &[Thread]) -> EscapedCopies {
        let mut by_obj: BTreeMap<ObjId, BTreeSet<crate::ir::FuncId>> = BTreeMap::new();
        for a in program.thread_local_addrs.iter().filter(|a| a.escapes) {
            let obj = program.globals[a.global.index()].obj;
            by_obj.entry(obj).or_default().insert(a.func);
        }
        let funcs: Vec<BTreeSet<crate::ir::FuncId>> = (threads.iter())
            .map(|t| t.cfg.contexts.iter().map(|c| c.func).collect())
            .collect();
        let anywhere = (threads.iter().zip(&funcs))
            .filter(|(t, _)| t.origin == crate::threads::Origin::Detached)
            .flat_map(|(_, f)| f.iter().copied())
            .collect();
        EscapedCopies {
            by_obj,
            funcs,
            anywhere,
        }
    }

    /// Whether the copy of `obj` of `thread` (`None`: any thread) may be reached through an
    /// address taken from memory or a call.
    fn may_escape(&self, obj: ObjId, thread: Option<usize>) -> bool {
        let Some(out) = self.by_obj.get(&obj) else {
            return false;
        };
        match thread.and_then(|k| self.funcs.get(k)) {
            None => !out.is_empty(),
            Some(funcs) => out
                .iter()
                .any(|f| funcs.contains(f) || self.anywhere.contains(f)),
        }
    }
}

/// A load or store that may move the address of a block of `handover` (a channel).
struct Channel {
    class: usize,
    parts: Vec<touch::Part>,
    unknown: bool,
}

/// Whether no channel store and channel load of `obj` that may touch the same bytes may race
/// (`handover`: then a load that reads a store's value comes after it), none through a lost
/// address.
fn channels_ordered(
    program: &Program,
    check: &mut Pairs<'_>,
    channels: &BTreeMap<ObjId, Vec<Channel>>,
    obj: ObjId,
) -> bool {
    let Some(list) = channels.get(&obj) else {
        return true;
    };
    if list.iter().any(|c| c.unknown) {
        return false;
    }
    let writes: Vec<&Channel> = (list.iter())
        .filter(|c| check.classes.list[c.class].kind == AccessKind::Write)
        .collect();
    let reads = list
        .iter()
        .filter(|c| check.classes.list[c.class].kind == AccessKind::Read);
    for r in reads {
        for w in &writes {
            let meet = r.parts.iter().any(|a| {
                (w.parts.iter())
                    .any(|b| a.obj == b.obj && touch::overlap(program, a.obj, a.at, b.at))
            });
            if meet && check.may_race(w.class, r.class) {
                return false;
            }
        }
    }
    true
}

/// The classes of the accesses, interned, and the sets of order points they follow.
#[derive(Default)]
struct Classes {
    list: Vec<Class>,
    ids: HashMap<Class, usize>,
    follows: Vec<FixedBitSet>,
    follows_ids: HashMap<FixedBitSet, usize>,
    /// Per (thread, place): the interned `follows` and the `precedes` of an access there.
    at: HashMap<(usize, Option<Place>), (usize, Option<usize>)>,
}

impl Classes {
    /// The class of an access of `kind` in context `c`.
    fn of(&mut self, order: &Order<'_>, c: &Ctx, kind: AccessKind, atomic: bool) -> usize {
        let (mut follows, precedes) = match c.thread {
            Some(t) => match self.at.get(&(t, c.place)) {
                Some(&v) => v,
                None => {
                    let set = order.follows(t, c.place);
                    let f = self.intern_follows(set);
                    let v = (f, order.precedes(t, c.place));
                    self.at.insert((t, c.place), v);
                    v
                }
            },
            None => (
                self.intern_follows(FixedBitSet::with_capacity(order.len())),
                None,
            ),
        };
        if let Some(f) = c.once {
            // The routine's one run ends before every `pthread_once` of it returns.
            let mut set = self.follows[follows].clone();
            set.union_with(&order.once_follows(f));
            follows = self.intern_follows(set);
        }
        let class = Class {
            thread: c.thread,
            excl: c.excl.clone(),
            shared: c.shared.clone(),
            kind,
            atomic,
            follows,
            precedes,
            once: c.once,
            at_exit: c.at_exit,
        };
        if let Some(&id) = self.ids.get(&class) {
            return id;
        }
        self.list.push(class.clone());
        self.ids.insert(class, self.list.len() - 1);
        self.list.len() - 1
    }

    fn intern_follows(&mut self, set: FixedBitSet) -> usize {
        if let Some(&id) = self.follows_ids.get(&set) {
            return id;
        }
        self.follows.push(set.clone());
        self.follows_ids.insert(set, self.follows.len() - 1);
        self.follows.len() - 1
    }
}

/// `1 access`, `2 accesses`.
/// The instructions of thread `t` on nodes the fixpoint reached (`reached[n]`, true past its
/// end) and that its entry reaches: (node, function, index in the block, instruction).
fn reached_insts<'p>(
    program: &'p Program,
    t: &'p Thread,
    reached: &'p [bool],
) -> impl Iterator<Item = (NodeId, crate::ir::FuncId, u32, &'p crate::ir::Inst)> + 'p {
    (t.cfg.nodes.iter().enumerate())
        .filter(move |&(n, _)| {
            t.shape.rpo[n] != u32::MAX && reached.get(n).copied().unwrap_or(true)
        })
        .flat_map(move |(n, nd)| {
            let func = t.cfg.contexts[nd.ctx.0 as usize].func;
            let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
            (nd.start..nd.end).map(move |idx| (NodeId(n as u32), func, idx, &insts[idx as usize]))
        })
}

fn plural(n: usize, noun: &str) -> String {
    match (n, noun.ends_with('s')) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{n} {noun}es"),
        _ => format!("{n} {noun}s"),
    }
}

/// The more specific of two places in one object: the shorter range of bytes.
fn specific(a: At, b: At) -> Option<At> {
    match (a, b) {
        (At::Bytes { len: la, .. }, At::Bytes { len: lb, .. }) => Some(if lb < la { b } else { a }),
        (At::Bytes { .. }, _) => Some(a),
        (_, At::Bytes { .. }) => Some(b),
        _ => None,
    }
}

/// The accesses as reports show them, each once.
#[derive(Default)]
struct Displays {
    list: Vec<Arc<RaceAccess>>,
    ids: HashMap<RaceAccess, usize>,
}

/// The pair checks over the classes of the collected accesses.
struct Pairs<'a> {
    program: &'a Program,
    threads: &'a [Thread],
    accs: &'a [Acc],
    classes: &'a Classes,
    /// Wait loops that order nothing for their flag's memory order (`Order::weak_flags`).
    weak_flags: &'a [order::WeakFlag],
    memo: HashMap<(usize, usize), bool>,
    /// Per access, its display (`display_id`), made once.
    display_of: std::cell::RefCell<Vec<Option<usize>>>,
    /// The displays, each once.
    displays: std::cell::RefCell<Displays>,
    /// Per lock id, its name (made once).
    lock_names: std::cell::RefCell<HashMap<u32, String>>,
    /// The locks threads inherit from their creators (`creation`).
    inherited: creation::Inherited,
}

impl Pairs<'_> {
    /// Whether accesses of classes `x` and `y` may race: at least one writes, at least one is
    /// not atomic, not the same thread that runs once, no lock both hold (a read lock excludes
    /// only a write lock), no order between them.
    fn may_race(&mut self, x: usize, y: usize) -> bool {
        let key = (x.min(y), x.max(y));
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let (a, b) = (&self.classes.list[x], &self.classes.list[y]);
        let follows = |c: &Class, d: &Class| {
            d.precedes
                .is_some_and(|p| self.classes.follows[c.follows].contains(p))
        };
        // Soundness: a thread that lives inside its creator's critical section holds its lock
        // in effect against the other threads (`creation`).
        let (ia, ib) = (
            self.inherited.against(a.thread, b.thread),
            self.inherited.against(b.thread, a.thread),
        );
        let (ea, eb): (BTreeSet<u32>, BTreeSet<u32>) = (
            a.excl.union(&ia).copied().collect(),
            b.excl.union(&ib).copied().collect(),
        );
        let v = (a.kind == AccessKind::Write || b.kind == AccessKind::Write)
            && !(a.atomic && b.atomic)
            && !matches!((a.thread, b.thread), (Some(ta), Some(tb)) if ta == tb && !self.threads[ta].multi)
            && ea.is_disjoint(&eb)
            && ea.is_disjoint(&b.shared)
            && a.shared.is_disjoint(&eb)
            && !follows(a, b)
            && !follows(b, a)
            && !(a.once.is_some() && a.once == b.once)
            // Soundness: exit-time code runs in one thread, one function after the other, at
            // the one exit of the process (calling `exit` twice is undefined, C11 7.22.4.4).
            && !(a.at_exit && b.at_exit);
        self.memo.insert(key, v);
        v
    }

    /// The report of one location, from the pairs of groups that may race there.
    fn report(
        &self,
        contexts: &Contexts,
        key: LocKey,
        groups: &[(&[usize], &[usize])],
        only: Option<&BTreeSet<usize>>,
    ) -> Race {
        // Every access, each once as shown (accesses of several contexts may look the same),
        // by place.
        let listed = |x: &&usize| only.is_none_or(|o| o.contains(*x));
        let mut distinct: Vec<&[usize]> = groups.iter().flat_map(|(x, y)| [*x, *y]).collect();
        distinct.sort_unstable_by_key(|g| (g.as_ptr(), g.len()));
        distinct.dedup_by_key(|g| (g.as_ptr(), g.len()));
        let mut ids: Vec<usize> = (distinct.iter().flat_map(|g| g.iter()))
            .filter(listed)
            .copied()
            .collect();
        ids.sort_unstable_by_key(|&x| (self.accs[x].span, x));
        ids.dedup();
        let mut chosen: Vec<usize> = Vec::new();
        let mut seen: BTreeSet<usize> = BTreeSet::new();
        for &x in &ids {
            if seen.insert(self.display_id(contexts, x)) {
                chosen.push(self.display_id(contexts, x));
            }
        }
        let table = self.displays.borrow();
        chosen.sort_by_key(|&d| (table.list[d].span, table.list[d].kind, d));
        let accesses: Vec<Arc<RaceAccess>> =
            chosen.iter().map(|&d| Arc::clone(&table.list[d])).collect();
        drop(table);
        let index: HashMap<usize, usize> =
            chosen.iter().enumerate().map(|(i, &d)| (d, i)).collect();
        let of = |x: &usize| index.get(&self.display_id(contexts, *x)).copied();
        let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
        let mut pair_groups: BTreeSet<(Vec<usize>, Vec<usize>)> = BTreeSet::new();
        for (xs, ys) in groups {
            let xs: BTreeSet<usize> = xs.iter().filter(listed).filter_map(of).collect();
            let ys: BTreeSet<usize> = ys.iter().filter(listed).filter_map(of).collect();
            if xs.is_empty() || ys.is_empty() {
                continue;
            }
            'pairs: for &i in &xs {
                for &j in &ys {
                    if pairs.len() >= MAX_PAIRS {
                        break 'pairs;
                    }
                    pairs.insert((i.min(j), i.max(j)));
                }
            }
            let (a, b): (Vec<usize>, Vec<usize>) =
                (xs.into_iter().collect(), ys.into_iter().collect());
            pair_groups.insert(if a <= b { (a, b) } else { (b, a) });
        }
        let (xs, ys) = groups[0];
        Race {
            memory: self.memory(key),
            reason: self.reason(contexts, xs[0], ys[0]),
            accesses,
            pairs: pairs.into_iter().collect(),
            pair_groups: merge_products(pair_groups.into_iter().collect()),
        }
    }

    /// The one report of the accesses through lost addresses: those accesses, a few of the
    /// accesses they may race with, and the objects they may touch.
    fn lost_report(
        &self,
        contexts: &Contexts,
        lost: &BTreeSet<usize>,
        others: &BTreeSet<usize>,
        touched: &BTreeSet<ObjId>,
    ) -> Race {
        let mut others: Vec<usize> = others.difference(lost).copied().collect();
        let more = others.len().saturating_sub(MAX_COUNTERPARTS);
        others.truncate(MAX_COUNTERPARTS);
        let lost_list: Vec<usize> = lost.iter().copied().collect();
        let groups: Vec<GroupPair> = if others.is_empty() {
            vec![(&lost_list, &lost_list)]
        } else {
            vec![(&lost_list, &others)]
        };
        let mut race = self.report(contexts, (None, None), &groups, None);
        let mut names: Vec<String> = (touched.iter().take(8))
            .map(|o| format!("`{}`", self.memory((Some(*o), None)).name))
            .collect();
        if touched.len() > 8 {
            names.push(format!("and {} more", touched.len() - 8));
        }
        let objects = if names.is_empty() {
            String::new()
        } else {
            format!(", among them {}", names.join(", "))
        };
        race.reason = format!(
            "{} through pointers the analysis cannot follow may touch any memory whose address \
             escaped ({}{objects}), at the same time as {} there{}",
            plural(lost.len(), "access"),
            plural(touched.len(), "object"),
            plural(others.len() + more, "other access"),
            if more > 0 {
                format!(" ({} of them listed)", others.len())
            } else {
                String::new()
            }
        );
        race
    }

    /// The report of the calls that use one piece of the C library's hidden state.
    fn hidden_report(&self, contexts: &Contexts, state: HiddenState, groups: &[GroupPair]) -> Race {
        let mut race = self.report(contexts, (None, None), groups, None);
        race.memory = Memory {
            name: format!("the C library's hidden state ({})", state.describe()),
            span: None,
        };
        let (xs, ys) = groups[0];
        let fname = |x: usize| match self.accs[x].via {
            AccessVia::Library(g) => format!("`{}`", self.program.funcs[g.index()].name),
            _ => "a call".to_string(),
        };
        race.reason = format!(
            "{} and {} both use {}, which the C library keeps and POSIX does not require to be \
             thread-safe (XSH 2.9.1); {}",
            fname(xs[0]),
            fname(ys[0]),
            state.describe(),
            self.reason(contexts, xs[0], ys[0])
        );
        race
    }

    /// The name of lock `m`.
    fn lock_name(&self, contexts: &Contexts, m: u32) -> String {
        (self.lock_names.borrow_mut().entry(m))
            .or_insert_with(|| contexts.names.describe(self.program, m))
            .clone()
    }

    /// The display of access `x`: the same number for accesses the report shows the same.
    fn display_id(&self, contexts: &Contexts, x: usize) -> usize {
        if let Some(d) = self.display_of.borrow()[x] {
            return d;
        }
        let a = self.show(contexts, x);
        let mut table = self.displays.borrow_mut();
        let d = match table.ids.get(&a) {
            Some(&d) => d,
            None => {
                table.list.push(Arc::new(a.clone()));
                let d = table.list.len() - 1;
                table.ids.insert(a, d);
                d
            }
        };
        self.display_of.borrow_mut()[x] = Some(d);
        d
    }

    fn show(&self, contexts: &Contexts, x: usize) -> RaceAccess {
        let a = &self.accs[x];
        let class = &self.classes.list[a.class];
        let mut locks: Vec<String> = (class.excl.iter())
            .map(|m| self.lock_name(contexts, *m))
            .collect();
        locks.extend(
            (class.shared.iter()).map(|m| format!("{} (read)", self.lock_name(contexts, *m))),
        );
        let fname = |g: crate::ir::FuncId| self.program.funcs[g.index()].name.clone();
        let how = match a.via {
            AccessVia::Direct => None,
            AccessVia::Bytes => Some("memset or memcpy".to_string()),
            AccessVia::Library(g) => Some(format!("`{}`", fname(g))),
            AccessVia::Assumed(g) => Some(format!(
                "`{}` (assumed to access what its arguments point to)",
                fname(g)
            )),
            AccessVia::UnknownCall => Some("a call through a pointer to unknown code".to_string()),
            AccessVia::Asm => Some("inline assembly".to_string()),
            AccessVia::Threads => Some("thread creation or join".to_string()),
            AccessVia::Realloc => {
                Some("`realloc` (which reads and frees the old block)".to_string())
            }
            AccessVia::Stream(g) => Some(format!(
                "`{}` (which may flush a stream of `open_memstream`, writing the buffer and size \
                 it keeps)",
                fname(g)
            )),
        };
        RaceAccess {
            span: a.span,
            kind: self.classes.list[a.class].kind,
            atomic: self.classes.list[a.class].atomic,
            thread: self.thread_name(class),
            function: self.program.funcs[a.func.index()].name.clone(),
            locks,
            how,
        }
    }

    fn thread_name(&self, c: &Class) -> String {
        let name = match c.thread {
            Some(t) => self.threads[t].name.clone(),
            None => "any thread".to_string(),
        };
        if c.at_exit {
            format!("{name} at exit")
        } else {
            name
        }
    }

    /// The name of a location.
    fn memory(&self, (obj, at): LocKey) -> Memory {
        let Some(obj) = obj else {
            return Memory {
                name: "memory reached through addresses the analysis lost".to_string(),
                span: None,
            };
        };
        let object = &self.program.objects[obj.index()];
        let mut name = match object.kind {
            ObjectKind::Global(g) => self.program.globals[g.index()].name.clone(),
            _ => object.name.clone(),
        };
        if let (Some(At::Bytes { start, raw, .. }), Some(layout)) = (at, &object.layout) {
            name += &layout.path(start, None, !raw);
        }
        Memory {
            name,
            span: object.span,
        }
    }

    /// Why the pair `(x, y)` is not excluded, in words.
    fn reason(&self, contexts: &Contexts, x: usize, y: usize) -> String {
        let (a, b) = (&self.accs[x], &self.accs[y]);
        let (ca, cb) = (&self.classes.list[a.class], &self.classes.list[b.class]);
        let who = |c: &Class| -> String {
            let locks: Vec<String> = (c.excl.iter().chain(&c.shared))
                .map(|m| format!("`{}`", self.lock_name(contexts, *m)))
                .collect();
            let name = self.thread_name(c);
            if locks.is_empty() {
                format!("`{name}` holds no lock")
            } else {
                format!("`{name}` holds {}", locks.join(", "))
            }
        };
        let same = ca.thread.is_some() && ca.thread == cb.thread;
        let locks = if same {
            let name = self.thread_name(ca);
            if x == y {
                format!("two instances of `{name}` may run this access at once, and no lock excludes them")
            } else {
                format!(
                    "two instances of `{name}` may run these accesses at once: {} and {}",
                    who(ca),
                    who(cb)
                )
            }
        } else if ca.excl.is_empty()
            && cb.excl.is_empty()
            && ca.shared.is_empty()
            && cb.shared.is_empty()
            && ca.thread.is_none()
            && cb.thread.is_none()
        {
            "no lock held: two threads may run them at once".to_string()
        } else if ca.excl.is_empty()
            && cb.excl.is_empty()
            && ca.shared.is_empty()
            && cb.shared.is_empty()
        {
            format!(
                "no common lock: neither `{}` nor `{}` holds one",
                self.thread_name(ca),
                self.thread_name(cb)
            )
        } else {
            format!("no common lock: {}, {}", who(ca), who(cb))
        };
        let weak = match (ca.thread, cb.thread) {
            (Some(ta), Some(tb)) if ta != tb => (self.weak_flags.iter())
                .find(|w| (w.writer, w.reader) == (ta, tb) || (w.writer, w.reader) == (tb, ta)),
            _ => None,
        };
        let order = if ca.thread.is_none() || cb.thread.is_none() {
            "code outside the analysed files may call it at any time".to_string()
        } else if let Some(w) = weak {
            let kind = if w.atomic {
                "is not both written with release order and read with acquire order"
            } else {
                "is a plain variable (`volatile` does not change that)"
            };
            format!(
                "no thread creation or join orders them, and the wait loop on `{}` does not \
                 either: the flag {kind}, and in C11 only a release store read by an acquire load \
                 (or one lock around both) orders the memory accessed before and after it",
                w.name
            )
        } else {
            "no thread creation, join or published flag orders them".to_string()
        };
        format!("{locks}; {order}")
    }
}

#[cfg(test)]
mod tests {
    use super::merge_products;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn pairs(groups: &[(Vec<usize>, Vec<usize>)]) -> BTreeSet<(usize, usize)> {
        let mut out = BTreeSet::new();
        for (a, b) in groups {
            for &x in a {
                for &y in b {
                    out.insert((x.min(y), x.max(y)));
                }
            }
        }
        out
    }

    proptest! {
        /// Joining products that share a side keeps exactly the pairs, and never adds groups.
        #[test]
        fn merging_products_keeps_the_pairs(
            groups in prop::collection::vec(
                (prop::collection::btree_set(0usize..12, 1..4),
                 prop::collection::btree_set(0usize..12, 1..4)),
                0..24,
            )
        ) {
            let groups: Vec<(Vec<usize>, Vec<usize>)> = (groups.into_iter())
                .map(|(a, b)| (a.into_iter().collect(), b.into_iter().collect()))
                .collect();
            let merged = merge_products(groups.clone());
            prop_assert_eq!(pairs(&merged), pairs(&groups));
            prop_assert!(merged.len() <= groups.len());
        }
    }

    #[test]
    fn products_with_a_common_side_are_one() {
        let merged = merge_products(vec![
            (vec![0], vec![1]),
            (vec![0], vec![2]),
            (vec![0], vec![3]),
        ]);
        assert_eq!(merged, vec![(vec![0], vec![1, 2, 3])]);
    }
}
