//! The feasibility oracle: the static closure once per program, one rule evaluation per new
//! combination, verdicts cached by the full combination.
//!
//! Invariant: a verdict depends only on the [`StaticFacts`] the oracle was built from and on
//! the whole canonical [`Combination`]; the cache key is that whole combination (never an
//! index vector), so no verdict is reused for another thread, load set or iteration.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::closure::{Closure, NO_COLUMN};
use crate::happens_before::{self, QueryFacts};
use crate::{Combination, Event, Feasibility, Loc, LockId, RuleId, StaticFacts, ThreadId, Verdict};

/// Answers feasibility queries for one program. `Sync`: share it between rayon workers.
#[derive(Debug)]
pub struct Oracle {
    // Invariant: indexed by event id; events beyond the end have no facts.
    events: Vec<EventInfo>,
    threads: HashMap<ThreadId, ThreadInfo>,
    // Invariant: sorted by event, for deterministic node numbering.
    strong_stores: HashMap<Loc, Vec<Event>>,
    // Invariant: strong-form edges only (README, "Static edges"): program order of
    // single-instance classes, start edges, create/join edges of single-instance children,
    // `all_ended → join` of multi-instance children joined by a join loop.
    must: Closure,
    // Invariant: program order (and start edges) inside multi-instance classes; holds between
    // events of one instance only.
    instance_order: Closure,
    cache: Mutex<HashMap<Combination, Verdict>>,
    queries: AtomicU64,
    evaluations: AtomicU64,
}

/// Counters of an [`Oracle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct OracleStats {
    /// Calls of [`Oracle::check`].
    pub queries: u64,
    /// Queries that were not answered from the cache and ran the rules.
    pub evaluations: u64,
}

#[derive(Clone, Debug, Default)]
struct EventInfo {
    thread: Option<ThreadId>,
    repeats: bool,
    is_load: bool,
    // Invariant: `Some` only if the load was declared with exactly one location.
    load_loc: Option<Loc>,
    is_store: bool,
    // The locations every occurrence overwrites (declared strong).
    strong_locs: Vec<Loc>,
    // Locks held exclusively at every occurrence.
    held: Vec<LockId>,
    // `(lock, loc)`: held here, and `loc` is stored again before the lock is released.
    overwrites: Vec<(LockId, Loc)>,
    // `(lock, loc)`: a load that holds the lock and whose thread stored to `loc` on every path
    // since it acquired the lock.
    stored_since: Vec<(LockId, Loc)>,
}

#[derive(Clone, Debug, Default)]
struct ThreadInfo {
    multi: bool,
    // Invariant: sorted, no duplicates.
    create_sites: Vec<Event>,
    // Multi-instance classes that a join loop waits for: the pseudo-event after the last
    // instance's termination (a must-edge leads from it to the join point).
    all_ended: Option<Event>,
    // With `all_ended`: the class's end pseudo-event, which some instance has reached by then.
    completes: Option<Event>,
}

impl ThreadInfo {
    fn unique_create_site(&self) -> Option<Event> {
        match self.create_sites.as_slice() {
            [c] => Some(*c),
            _ => None,
        }
    }
}

/// One node of a query (README, "Nodes").
#[derive(Clone, Copy, Debug)]
struct Node {
    event: Event,
    // `a → self` holds if `must(a.out, into)`.
    into: Option<Event>,
    // `self → b` holds if `must(out, b.into)`.
    out: Option<Event>,
    // Nodes of the analysed instance of a multi-instance class.
    instance: Option<ThreadId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum NodeKey {
    /// All occurrences of an event of a single-instance class.
    Plain(Event),
    /// The occurrences of an event in the analysed instance of a multi-instance class.
    Instance(ThreadId, Event),
    /// The occurrence of a store read by the pair with this index.
    Occurrence(usize),
    /// All occurrences of a store of a multi-instance class, in every instance.
    AnyInstance(Event),
}

impl Oracle {
    /// Closes the static must-happen-before relation of `facts` (rules 1, 2, 5) once.
    pub fn new(facts: &StaticFacts) -> Self {
        let n = max_event(facts).map_or(0, |e| e as usize + 1);
        let mut events = vec![EventInfo::default(); n];
        // Per event: no class yet, one class, or two different ones (`Err`).
        let mut class_of: Vec<Option<Result<ThreadId, ()>>> = vec![None; n];
        for &(e, t) in &facts.thread_of {
            let slot = &mut class_of[e.0 as usize];
            *slot = match *slot {
                None => Some(Ok(t)),
                Some(Ok(u)) if u == t => Some(Ok(t)),
                _ => Some(Err(())),
            };
        }
        for (info, class) in events.iter_mut().zip(&class_of) {
            // Soundness: an event declared in two classes has no class, so no fact uses it.
            if let Some(Ok(t)) = class {
                info.thread = Some(*t);
            }
        }
        for &e in &facts.repeats {
            events[e.0 as usize].repeats = true;
        }
        for &(e, m) in &facts.held {
            events[e.0 as usize].held.push(m);
        }
        for &(s, m, v) in &facts.overwritten_under {
            events[s.0 as usize].overwrites.push((m, v));
        }
        for &(l, m, v) in &facts.stored_since_acquire {
            events[l.0 as usize].stored_since.push((m, v));
        }
        for &(l, _) in &facts.loads {
            events[l.0 as usize].is_load = true;
        }
        for (l, v) in single_location(&facts.loads) {
            events[l.0 as usize].load_loc = Some(v);
        }
        for &(s, _) in facts.stores.iter().chain(&facts.may_stores) {
            events[s.0 as usize].is_store = true;
        }
        let mut strong_stores: HashMap<Loc, Vec<Event>> = HashMap::default();
        let mut declared = facts.stores.clone();
        declared.sort_unstable();
        declared.dedup();
        // A strong store declared for several locations overwrites each of them (a `memcpy`
        // that covers them all).
        for (s, v) in declared {
            events[s.0 as usize].strong_locs.push(v);
            strong_stores.entry(v).or_default().push(s);
        }
        for stores in strong_stores.values_mut() {
            stores.sort_unstable();
        }

        let mut threads: HashMap<ThreadId, ThreadInfo> = HashMap::default();
        for &t in &facts.multi_instance {
            threads.entry(t).or_default().multi = true;
        }
        for &(c, start) in &facts.creates {
            if let Some(t) = events[start.0 as usize].thread {
                threads.entry(t).or_default().create_sites.push(c);
            }
        }
        for info in threads.values_mut() {
            info.create_sites.sort_unstable();
            info.create_sites.dedup();
        }
        let multi = |t: ThreadId| threads.get(&t).is_some_and(|i| i.multi);

        let mut must_edges: Vec<(u32, u32)> = Vec::new();
        let mut instance_edges: Vec<(u32, u32)> = Vec::new();
        for &(a, b) in &facts.program_order {
            match (events[a.0 as usize].thread, events[b.0 as usize].thread) {
                // Soundness (rule 1): dominance + non-reachability order every occurrence of
                // `a` before every occurrence of `b` in one instance, and an occurrence of `b`
                // after one of `a`. With one instance that is the strong form.
                (Some(t), Some(u)) if t == u && !multi(t) => must_edges.push((a.0, b.0)),
                (Some(t), Some(u)) if t == u => instance_edges.push((a.0, b.0)),
                _ => {}
            }
        }
        // Soundness: the start pseudo-event occurs once per instance, before the rest of it.
        let starts: BTreeSet<Event> = facts
            .creates
            .iter()
            .map(|&(_, start)| start)
            .filter(|s| events[s.0 as usize].thread.is_some() && !events[s.0 as usize].repeats)
            .collect();
        // The events of each class, ascending (one pass over the events, not one per start).
        let mut members: HashMap<ThreadId, Vec<u32>> = HashMap::default();
        for (e, info) in events.iter().enumerate() {
            if let Some(t) = info.thread {
                members.entry(t).or_default().push(e as u32);
            }
        }
        for &start in &starts {
            let t = events[start.0 as usize].thread.expect("filtered");
            let edges = if multi(t) {
                &mut instance_edges
            } else {
                &mut must_edges
            };
            for &e in members.get(&t).map_or(&[][..], Vec::as_slice) {
                if e != start.0 {
                    edges.push((start.0, e));
                }
            }
        }
        for &(c, start) in &facts.creates {
            // Soundness (rule 2, create): a single-instance child is created by at most one
            // create occurrence, and by an occurrence of its unique create site.
            if let Some(t) = events[start.0 as usize].thread {
                let info = &threads[&t];
                if !info.multi && info.unique_create_site() == Some(c) {
                    must_edges.push((c.0, start.0));
                }
            }
        }
        for &(end, join) in &facts.joins {
            // Soundness (rule 2, join): the single instance ends before any completed
            // occurrence of a join that must wait for it. For a multi-instance child the
            // joined instance is unknown, so the fact is not used.
            if let Some(t) = events[end.0 as usize].thread {
                if !multi(t) {
                    must_edges.push((end.0, join.0));
                }
            }
        }

        for fact in &facts.joins_all {
            // Soundness (join loops): every instance of the child class has terminated before
            // every occurrence of `join`; `all_ended`, of no class, stands for the moment the
            // last one did. An edge in the strong form: (all) by the caller's contract, (some)
            // because an occurrence of `join` comes after that moment. Only the first fact of a
            // class is used, and only for a multi-instance class (a single-instance child has
            // `joins`).
            let Some(t) = events[fact.child_end.0 as usize].thread else {
                continue;
            };
            let free = events
                .get(fact.all_ended.0 as usize)
                .is_some_and(|e| e.thread.is_none() && !e.is_load && !e.is_store);
            let info = threads.entry(t).or_default();
            if !info.multi || !free || info.all_ended.is_some() {
                continue;
            }
            info.all_ended = Some(fact.all_ended);
            info.completes = fact.at_least_one.then_some(fact.child_end);
            must_edges.push((fact.all_ended.0, fact.join.0));
        }

        let mut column = vec![NO_COLUMN; n];
        let mut columns = 0u32;
        let anchors: BTreeSet<u32> = threads
            .values()
            .filter(|i| i.multi)
            .flat_map(|i| [i.unique_create_site(), i.completes])
            .flatten()
            .map(|c| c.0)
            .collect();
        for (e, info) in events.iter().enumerate() {
            if info.is_load || info.is_store || anchors.contains(&(e as u32)) {
                column[e] = columns;
                columns += 1;
            }
        }
        let must = Closure::new(n, &must_edges, column.clone(), columns as usize);
        let instance_order = Closure::new(n, &instance_edges, column, columns as usize);
        Oracle {
            events,
            threads,
            strong_stores,
            must,
            instance_order,
            cache: Mutex::new(HashMap::default()),
            queries: AtomicU64::new(0),
            evaluations: AtomicU64::new(0),
        }
    }

    /// Whether the static facts alone prove that every occurrence of `a` happens before every
    /// occurrence of `b` (the load filter of FSE'16 Alg. 3 for loads in loops). Answers only
    /// for `b` a declared load or store; false when unknown.
    pub fn must_happen_before(&self, a: Event, b: Event) -> bool {
        self.must.get(a.0, b.0)
    }

    /// The verdict for `c`, from the cache when this exact combination was checked before.
    pub fn check(&self, c: &Combination) -> Verdict {
        self.queries.fetch_add(1, Ordering::Relaxed);
        if let Some(&v) = self.lock_cache().get(c) {
            return v;
        }
        // The lock is not held while the rules run: two workers may evaluate the same
        // combination at once, and both get the same (deterministic) verdict.
        let verdict = self.evaluate(c);
        self.lock_cache().insert(c.clone(), verdict);
        verdict
    }

    /// The counters so far.
    pub fn stats(&self) -> OracleStats {
        OracleStats {
            queries: self.queries.load(Ordering::Relaxed),
            evaluations: self.evaluations.load(Ordering::Relaxed),
        }
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, HashMap<Combination, Verdict>> {
        // A panic in another worker cannot leave a half-written entry: recover the map.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn info(&self, e: Event) -> Option<&EventInfo> {
        self.events.get(e.0 as usize)
    }

    fn multi(&self, t: ThreadId) -> bool {
        self.threads.get(&t).is_some_and(|i| i.multi)
    }

    fn create_site(&self, t: ThreadId) -> Option<Event> {
        self.threads
            .get(&t)
            .and_then(ThreadInfo::unique_create_site)
    }

    /// Runs the rules on `c` (no cache).
    fn evaluate(&self, c: &Combination) -> Verdict {
        self.evaluations.fetch_add(1, Ordering::Relaxed);
        let Some(query) = self.query(c) else {
            return Verdict::Feasible;
        };
        let found = happens_before::evaluate(&query);
        if found.static_cycle {
            Verdict::Infeasible(RuleId::HappensBeforeCycle)
        } else if found.reads_from_future {
            Verdict::Infeasible(RuleId::ReadsFromFuture)
        } else if found.overwritten_reread {
            Verdict::Infeasible(RuleId::OverwrittenReread)
        } else if found.with_overwrites {
            Verdict::Infeasible(RuleId::ReadsOverwritten)
        } else if found.locked_overwrite {
            Verdict::Infeasible(RuleId::LockedOverwrite)
        } else if found.locked_own_store {
            Verdict::Infeasible(RuleId::LockedOwnStore)
        } else {
            Verdict::Feasible
        }
    }

    /// The nodes and input facts of one query, or `None` when no pair is usable.
    fn query(&self, c: &Combination) -> Option<QueryFacts> {
        let mut per_load: HashMap<Event, u32> = HashMap::default();
        for &(l, _) in c.pairs() {
            *per_load.entry(l).or_default() += 1;
        }
        for (l, _) in c.uncertain() {
            *per_load.entry(*l).or_default() += 1;
        }
        let pairs: Vec<(Event, Event)> = c
            .pairs()
            .iter()
            .copied()
            // Soundness: a load with two stores (or with a set of stores) does not read
            // exactly one store, so rules 3, 4 and 7 must not see it: drop its pairs.
            .filter(|(l, _)| per_load[l] == 1)
            .filter(|&(l, s)| self.usable_pair(l, s))
            .collect();
        if pairs.is_empty() {
            return None;
        }
        let mut nodes: Vec<Node> = Vec::new();
        let mut index: HashMap<NodeKey, u32> = HashMap::default();
        let add = |nodes: &mut Vec<Node>, index: &mut HashMap<NodeKey, u32>, key, node| -> u32 {
            *index.entry(key).or_insert_with(|| {
                nodes.push(node);
                nodes.len() as u32 - 1
            })
        };
        let mut q = QueryFacts::default();
        let mut load_locs: BTreeSet<Loc> = BTreeSet::new();
        for (i, &(l, s)) in pairs.iter().enumerate() {
            let (lt, st) = (self.thread(l), self.thread(s));
            let ln = if self.multi(lt) {
                // Soundness: the load is a witness of the analysed instance, which has
                // terminated, like all the others, before a join loop's end.
                let node = Node {
                    out: self.all_ended(lt),
                    ..self.instance_node(lt, l)
                };
                add(&mut nodes, &mut index, NodeKey::Instance(lt, l), node)
            } else {
                add(&mut nodes, &mut index, NodeKey::Plain(l), plain(l))
            };
            let sn = if self.multi(st) {
                // Soundness: the store may come from any instance of its class, another
                // one for each pair: a fresh node, ordered only after what precedes its
                // class's (unique) create site, and before what follows the termination of
                // all instances when a join loop waits for them (a witness needs only the
                // (all) half of its outgoing steps).
                let node = Node {
                    event: s,
                    into: self.create_site(st),
                    out: self.all_ended(st),
                    instance: None,
                };
                add(&mut nodes, &mut index, NodeKey::Occurrence(i), node)
            } else if self.info(s).is_some_and(|e| e.repeats) {
                // Soundness: a repeating store's occurrences are told apart per pair; the
                // static edges of `s` hold for all its occurrences, so for this one too.
                add(&mut nodes, &mut index, NodeKey::Occurrence(i), plain(s))
            } else {
                add(&mut nodes, &mut index, NodeKey::Plain(s), plain(s))
            };
            q.reads_from.push((ln, sn));
            q.witnesses.extend([ln, sn]);
            // Mutual exclusion needs two threads; two instances of one class may be one.
            if lt != st {
                q.other_thread.push((ln, sn));
                let (li, si) = (self.info(l), self.info(s));
                for m in li.map_or(&[][..], |i| i.held.as_slice()) {
                    q.held_at.push((ln, m.0));
                }
                for (m, v) in si.map_or(&[][..], |i| i.overwrites.as_slice()) {
                    q.overwritten_under.push((sn, m.0, v.0));
                }
                for m in si.map_or(&[][..], |i| i.held.as_slice()) {
                    q.store_held.push((sn, m.0));
                }
                for (m, v) in li.map_or(&[][..], |i| i.stored_since.as_slice()) {
                    q.stored_since_acquire.push((ln, m.0, v.0));
                }
            }
            q.loads.push(ln);
            q.stores.push(sn);
            if let Some(v) = self.info(l).and_then(|e| e.load_loc) {
                q.load_of.push((ln, v.0));
                load_locs.insert(v);
            }
            for v in self.info(s).map_or(&[][..], |e| e.strong_locs.as_slice()) {
                q.strong_store_of.push((sn, v.0));
            }
        }
        let analysed: BTreeSet<ThreadId> = pairs
            .iter()
            .map(|&(l, _)| self.thread(l))
            .filter(|&t| self.multi(t))
            .collect();
        // Candidates for the overwriting store s2 of rules 4 and 7.
        for &v in &load_locs {
            for &s2 in self.strong_stores.get(&v).map_or(&[][..], Vec::as_slice) {
                let Some(t) = self.info(s2).and_then(|e| e.thread) else {
                    continue;
                };
                let (key, node) = if !self.multi(t) {
                    (NodeKey::Plain(s2), plain(s2))
                } else if analysed.contains(&t) {
                    (NodeKey::Instance(t, s2), self.instance_node(t, s2))
                } else if let Some(node) = self.completed_store(t, s2) {
                    (NodeKey::AnyInstance(s2), node)
                } else {
                    // Soundness: the instance of another multi-instance class that wrote s1
                    // is unknown, so its other stores are not ordered after s1.
                    continue;
                };
                // A store that is not a witness matters only on a path between witnesses: edges
                // into it are static steps from witnesses (or overwrite edges that need an
                // `mhb` into it first), and edges out of it are static steps to witnesses. A
                // store that no witness reaches, or that reaches no witness, is in no cycle and
                // on no path that a conclusion reads: leave it out and keep the query small.
                let needed = index.contains_key(&key)
                    || (q.witnesses.iter()).any(|&w| self.reaches(&nodes[w as usize], &node))
                        && (q.witnesses.iter()).any(|&w| self.reaches(&node, &nodes[w as usize]));
                if !needed {
                    continue;
                }
                let n = add(&mut nodes, &mut index, key, node);
                q.strong_store_of.push((n, v.0));
                q.stores.push(n);
            }
        }
        for list in [&mut q.witnesses, &mut q.loads, &mut q.stores] {
            list.sort_unstable();
            list.dedup();
        }
        q.strong_store_of.sort_unstable();
        q.strong_store_of.dedup();
        // Static steps: from every witness to every node, and from every other node to every
        // witness (a path between two non-witness nodes is already one static step).
        let mut is_witness = vec![false; nodes.len()];
        for &w in &q.witnesses {
            is_witness[w as usize] = true;
        }
        for &w in &q.witnesses {
            for (n, node) in nodes.iter().enumerate() {
                if self.reaches(&nodes[w as usize], node) {
                    q.step.push((w, n as u32));
                }
                if !is_witness[n] && self.reaches(node, &nodes[w as usize]) {
                    q.step.push((n as u32, w));
                }
            }
        }
        Some(q)
    }

    /// Whether `(l, s)` can take part in the rules; otherwise it is ignored (README, "What
    /// the oracle ignores").
    fn usable_pair(&self, l: Event, s: Event) -> bool {
        let (Some(li), Some(si)) = (self.info(l), self.info(s)) else {
            return false;
        };
        // Soundness: a repeating load may read several stores over its occurrences, and an
        // event without a class cannot be placed in an instance.
        l != s
            && li.is_load
            && !li.repeats
            && li.thread.is_some()
            && si.is_store
            && si.thread.is_some()
    }

    fn thread(&self, e: Event) -> ThreadId {
        self.info(e)
            .and_then(|i| i.thread)
            .expect("usable pairs have a thread")
    }

    fn all_ended(&self, t: ThreadId) -> Option<Event> {
        self.threads.get(&t).and_then(|i| i.all_ended)
    }

    /// The node of all occurrences of the strong store `s2` of the multi-instance class `t`,
    /// in every instance, when a join loop waits for all of them and one has surely run past
    /// `s2`.
    fn completed_store(&self, t: ThreadId, s2: Event) -> Option<Node> {
        let info = self.threads.get(&t)?;
        let (end, all_ended) = (info.completes?, info.all_ended?);
        // Soundness: a non-witness node needs the (some) half of its outgoing steps: some
        // instance reached `end` before `all_ended`, and `s2` precedes `end` in every
        // instance by program order, so an occurrence of `s2` precedes `all_ended`. Every
        // occurrence (of every instance) follows what precedes the unique create site.
        self.instance_order.get(s2.0, end.0).then_some(Node {
            event: s2,
            into: self.create_site(t),
            out: Some(all_ended),
            instance: None,
        })
    }

    fn instance_node(&self, t: ThreadId, e: Event) -> Node {
        Node {
            event: e,
            into: self.create_site(t),
            out: None,
            instance: Some(t),
        }
    }

    /// The static step `a → b` between two query nodes, in the strong form.
    fn reaches(&self, a: &Node, b: &Node) -> bool {
        let through_must = match (a.out, b.into) {
            (Some(o), Some(i)) => self.must.get(o.0, i.0),
            _ => false,
        };
        let same_instance = matches!((a.instance, b.instance), (Some(x), Some(y)) if x == y)
            && self.instance_order.get(a.event.0, b.event.0);
        through_must || same_instance
    }
}

impl Feasibility for Oracle {
    fn check(&self, c: &Combination) -> Verdict {
        Oracle::check(self, c)
    }
}

fn plain(e: Event) -> Node {
    Node {
        event: e,
        into: Some(e),
        out: Some(e),
        instance: None,
    }
}

/// The events declared with exactly one location (however often), with it, by event.
fn single_location(decls: &[(Event, Loc)]) -> Vec<(Event, Loc)> {
    let mut sorted = decls.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = Vec::with_capacity(sorted.len());
    for (k, &(e, v)) in sorted.iter().enumerate() {
        let before = k > 0 && sorted[k - 1].0 == e;
        let after = sorted.get(k + 1).is_some_and(|&(x, _)| x == e);
        if !before && !after {
            out.push((e, v));
        }
    }
    out
}

fn max_event(f: &StaticFacts) -> Option<u32> {
    let pairs = f
        .program_order
        .iter()
        .chain(&f.creates)
        .chain(&f.joins)
        .flat_map(|&(a, b)| [a.0, b.0])
        .chain(
            f.joins_all
                .iter()
                .flat_map(|j| [j.child_end.0, j.all_ended.0, j.join.0]),
        );
    let singles = f
        .loads
        .iter()
        .chain(&f.stores)
        .chain(&f.may_stores)
        .map(|&(e, _)| e.0)
        .chain(f.thread_of.iter().map(|&(e, _)| e.0))
        .chain(f.held.iter().map(|&(e, _)| e.0))
        .chain(f.overwritten_under.iter().map(|&(e, _, _)| e.0))
        .chain(f.stored_since_acquire.iter().map(|&(e, _, _)| e.0))
        .chain(f.repeats.iter().map(|e| e.0));
    pairs.chain(singles).max()
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::happens_before::static_closure;

    const THREADS: u32 = 4;
    const EVENTS: u32 = 200;
    const LOCS: u32 = 8;

    /// Thread `t` owns events `t * EVENTS ..`; main (0) creates the others with its first
    /// events and joins them with its last ones; the rest alternate loads and stores over
    /// `LOCS` locations. Program order is given as a chain (the closure does the rest) or,
    /// as a caller that computes dominance would give it, between every pair (`dense`).
    fn large_program(dense: bool) -> (StaticFacts, Vec<(u32, u32)>) {
        let mut f = StaticFacts::new();
        let mut must = Vec::new();
        let ev = |t: u32, i: u32| Event(t * EVENTS + i);
        for t in 0..THREADS {
            for i in 0..EVENTS {
                f.thread_of(ev(t, i), ThreadId(t));
                let later = if dense { EVENTS } else { (i + 2).min(EVENTS) };
                for j in i + 1..later {
                    f.program_order(ev(t, i), ev(t, j));
                    must.push((ev(t, i).0, ev(t, j).0));
                }
            }
        }
        for t in 1..THREADS {
            // main's event t - 1 creates t (whose event 0 is its start), main's event
            // EVENTS - t joins t (whose last event is its end).
            f.creates(ev(0, t - 1), ev(t, 0));
            f.joins(ev(t, EVENTS - 1), ev(0, EVENTS - t));
            must.push((ev(0, t - 1).0, ev(t, 0).0));
            must.push((ev(t, EVENTS - 1).0, ev(0, EVENTS - t).0));
            for i in 2..EVENTS {
                must.push((ev(t, 0).0, ev(t, i).0));
            }
        }
        for t in 0..THREADS {
            for i in THREADS..EVENTS - THREADS {
                let loc = Loc((i / 2) % LOCS);
                if i % 2 == 0 {
                    f.load(ev(t, i), loc);
                } else {
                    f.store(ev(t, i), loc);
                }
            }
        }
        (f, must)
    }

    #[test]
    fn single_location_keeps_events_declared_with_one_location() {
        let decls = [
            (Event(3), Loc(1)),
            (Event(1), Loc(2)),
            (Event(3), Loc(1)),
            (Event(2), Loc(1)),
            (Event(2), Loc(4)),
        ];
        assert_eq!(
            single_location(&decls),
            vec![(Event(1), Loc(2)), (Event(3), Loc(1))]
        );
    }

    #[test]
    fn bitset_closure_agrees_with_the_crepe_closure_and_a_query_is_fast() {
        for dense in [false, true] {
            measure(dense);
        }
    }

    fn measure(dense: bool) {
        let (facts, must) = large_program(dense);
        let started = Instant::now();
        let oracle = Oracle::new(&facts);
        let bitset = started.elapsed();
        let started = Instant::now();
        let by_crepe = static_closure::run(&must);
        let crepe = started.elapsed();
        let columns: Vec<u32> = (0..THREADS * EVENTS)
            .filter(|&e| oracle.events[e as usize].is_load || oracle.events[e as usize].is_store)
            .collect();
        let mut by_bitset = Vec::new();
        for a in 0..THREADS * EVENTS {
            for &b in &columns {
                if oracle.must_happen_before(Event(a), Event(b)) {
                    by_bitset.push((a, b));
                }
            }
        }
        let restricted: Vec<_> = by_crepe
            .iter()
            .copied()
            .filter(|(_, b)| columns.binary_search(b).is_ok())
            .collect();
        assert_eq!(by_bitset, restricted);
        println!(
            "static closure of {} events, {} edges: Oracle::new (bitset) {bitset:?}, \
             crepe {crepe:?} ({} pairs)",
            THREADS * EVENTS,
            must.len(),
            by_crepe.len()
        );

        // Queries: thread 1's loads read stores of the same location in threads 2 and 3.
        let load = |i: u32| Event(EVENTS + THREADS + 2 * i);
        let store = |t: u32, i: u32| Event(t * EVENTS + THREADS + 2 * i + 1);
        let mut slowest = std::time::Duration::ZERO;
        let mut total = std::time::Duration::ZERO;
        let mut infeasible = 0;
        let queries = 20u32;
        for q in 0..queries {
            let mut c = Combination::new();
            for k in 0..8 {
                let i = (q * 7 + k * 23) % 90;
                c.reads_from(load(i), store(2 + (q + k) % 2, (i + q) % 90));
            }
            let started = Instant::now();
            infeasible += u32::from(oracle.check(&c).is_infeasible());
            let took = started.elapsed();
            slowest = slowest.max(took);
            total += took;
        }
        println!(
            "{queries} queries of 8 pairs: mean {:?}, slowest {slowest:?}, {infeasible} infeasible",
            total / queries
        );
        assert_eq!(oracle.stats().evaluations, u64::from(queries));
    }
}
