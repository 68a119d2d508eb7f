//! Soundness against ground truth: small random programs (straight-line threads, creates and
//! joins, repeating stores, multi-instance children) are run under every sequentially
//! consistent interleaving; every combination the oracle calls infeasible must be realised by
//! none of them.

use std::collections::{BTreeMap, HashSet};

use watts_rules::{Combination, Event, Loc, Oracle, StaticFacts, ThreadId, Verdict};

const LOCS: u32 = 2;

#[derive(Clone, Copy, Debug)]
enum Op {
    Load(Loc, Event),
    Store(Loc, Event),
    Create {
        child: usize,
        instance: usize,
        at: Event,
    },
    Join {
        child: usize,
        instance: usize,
        at: Event,
    },
    /// The point after a join loop that joined every instance of `child` (a no-op).
    AllJoined {
        child: usize,
        all_ended: Event,
        at_least_one: bool,
        at: Event,
    },
}

#[derive(Debug)]
struct Program {
    // code[0] is main; code[k] the body of child class k.
    code: Vec<Vec<Op>>,
    // instances[k]: how many instances class k has (main: 1).
    instances: Vec<usize>,
    // start and end pseudo-events of each child class (unused for main).
    start: Vec<Event>,
    end: Vec<Event>,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn generate(rng: &mut Rng) -> Program {
    let children = 1 + rng.below(2) as usize;
    let mut next = 0u32;
    let mut fresh = || {
        next += 1;
        Event(next - 1)
    };
    let mut instances = vec![1];
    let mut start = vec![Event(u32::MAX)];
    let mut end = vec![Event(u32::MAX)];
    for _ in 0..children {
        instances.push(if rng.chance(40) { 2 } else { 1 });
        start.push(fresh());
        end.push(fresh());
    }
    let memory_op = |rng: &mut Rng, code: &mut Vec<Op>, fresh: &mut dyn FnMut() -> Event| {
        let loc = Loc(rng.below(LOCS as u64) as u32);
        if rng.chance(50) {
            code.push(Op::Load(loc, fresh()));
        } else {
            let at = fresh();
            code.push(Op::Store(loc, at));
            if rng.chance(20) {
                code.push(Op::Store(loc, at)); // a store in a loop
            }
        }
    };
    let mut code = vec![Vec::new()];
    let mut main = Vec::new();
    for _ in 0..rng.below(3) {
        memory_op(rng, &mut main, &mut fresh);
    }
    let mut joins = Vec::new();
    for (child, &count) in instances.iter().enumerate().skip(1) {
        let at = fresh();
        for instance in 0..count {
            main.push(Op::Create {
                child,
                instance,
                at,
            });
        }
        if rng.chance(60) {
            joins.push((child, count, fresh()));
        }
        for _ in 0..rng.below(2) {
            memory_op(rng, &mut main, &mut fresh);
        }
    }
    for (child, count, at) in joins {
        // A join loop may join fewer instances than were created.
        let joined = if count > 1 && rng.chance(50) {
            1
        } else {
            count
        };
        for instance in 0..joined {
            main.push(Op::Join {
                child,
                instance,
                at,
            });
        }
        if joined == count && count > 1 && rng.chance(70) {
            main.push(Op::AllJoined {
                child,
                all_ended: fresh(),
                at_least_one: rng.chance(70),
                at: fresh(),
            });
        }
        for _ in 0..rng.below(2) {
            memory_op(rng, &mut main, &mut fresh);
        }
    }
    code[0] = main;
    for _ in 1..instances.len() {
        let mut body = Vec::new();
        for _ in 0..1 + rng.below(3) {
            memory_op(rng, &mut body, &mut fresh);
        }
        code.push(body);
    }
    Program {
        code,
        instances,
        start,
        end,
    }
}

fn op_event(op: &Op) -> Event {
    match *op {
        Op::Load(_, e) | Op::Store(_, e) => e,
        Op::Create { at, .. } | Op::Join { at, .. } | Op::AllJoined { at, .. } => at,
    }
}

fn facts(p: &Program) -> StaticFacts {
    let mut f = StaticFacts::new();
    for (class, body) in p.code.iter().enumerate() {
        let t = ThreadId(class as u32);
        let mut order: Vec<Event> = Vec::new();
        if class > 0 {
            order.push(p.start[class]);
            if p.instances[class] > 1 {
                f.multi_instance(t);
            }
        }
        for op in body {
            let ev = op_event(op);
            if order.last() == Some(&ev) {
                f.repeats(ev); // executed twice in a row: a one-instruction loop
            } else {
                order.push(ev);
            }
            match *op {
                Op::Load(loc, e) => {
                    f.load(e, loc);
                }
                Op::Store(loc, e) => {
                    f.store(e, loc);
                }
                Op::Create { child, at, .. } => {
                    f.creates(at, p.start[child]);
                }
                Op::Join { child, at, .. } => {
                    f.joins(p.end[child], at);
                    if p.instances[child] > 1 {
                        f.repeats(at); // the join loop
                    }
                }
                Op::AllJoined {
                    child,
                    all_ended,
                    at_least_one,
                    at,
                } => {
                    f.joins_all(p.end[child], all_ended, at, at_least_one);
                }
            }
        }
        if class > 0 {
            order.push(p.end[class]);
        }
        for (i, &a) in order.iter().enumerate() {
            f.thread_of(a, t);
            for &b in &order[i + 1..] {
                f.program_order(a, b);
            }
        }
    }
    f
}

/// What the loads of instance 0 of `class` read, in every complete execution: `None` for the
/// initial value.
type ReadsOf = BTreeMap<Event, Option<Event>>;

fn executions(p: &Program, class: usize) -> HashSet<ReadsOf> {
    // Instances: (class, instance) flattened.
    let mut ids = Vec::new();
    for (k, &n) in p.instances.iter().enumerate() {
        for i in 0..n {
            ids.push((k, i));
        }
    }
    #[derive(Clone, PartialEq, Eq, Hash)]
    struct State {
        pc: Vec<usize>,
        started: Vec<bool>,
        memory: Vec<Option<Event>>,
        reads: ReadsOf,
    }
    let init = State {
        pc: vec![0; ids.len()],
        started: ids.iter().map(|&(k, _)| k == 0).collect(),
        memory: vec![None; LOCS as usize],
        reads: ReadsOf::new(),
    };
    let index_of = |k: usize, i: usize| ids.iter().position(|&x| x == (k, i)).expect("known");
    let mut seen = HashSet::new();
    let mut stack = vec![init];
    let mut finals = HashSet::new();
    while let Some(s) = stack.pop() {
        if !seen.insert(s.clone()) {
            continue;
        }
        let mut moved = false;
        for (n, &(k, i)) in ids.iter().enumerate() {
            let Some(op) = p.code[k].get(s.pc[n]).filter(|_| s.started[n]) else {
                continue;
            };
            let mut t = s.clone();
            t.pc[n] += 1;
            match *op {
                Op::Load(loc, e) => {
                    if k == class && i == 0 {
                        t.reads.insert(e, s.memory[loc.0 as usize]);
                    }
                }
                Op::Store(loc, e) => t.memory[loc.0 as usize] = Some(e),
                Op::Create {
                    child, instance, ..
                } => t.started[index_of(child, instance)] = true,
                Op::Join {
                    child, instance, ..
                } => {
                    let j = index_of(child, instance);
                    if !(s.started[j] && s.pc[j] == p.code[child].len()) {
                        continue;
                    }
                }
                Op::AllJoined { .. } => {}
            }
            moved = true;
            stack.push(t);
        }
        if !moved {
            finals.insert(s.reads);
        }
    }
    finals
}

#[test]
fn no_realised_combination_is_called_infeasible() {
    // More programs: WATTS_RULES_PROGRAMS=20000 cargo test --release -p watts-rules.
    let programs: u64 = std::env::var("WATTS_RULES_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut pruned, mut truly_infeasible) = (0u64, 0u64, 0u64);
    for program in 0..programs {
        let p = generate(&mut rng);
        let oracle = Oracle::new(&facts(&p));
        let stores: Vec<(Loc, Event)> = p
            .code
            .iter()
            .flatten()
            .filter_map(|op| match *op {
                Op::Store(loc, e) => Some((loc, e)),
                _ => None,
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        for class in 0..p.code.len() {
            let loads: Vec<(Loc, Event)> = p.code[class]
                .iter()
                .filter_map(|op| match *op {
                    Op::Load(loc, e) => Some((loc, e)),
                    _ => None,
                })
                .collect();
            if loads.is_empty() {
                continue;
            }
            let realised = executions(&p, class);
            // Every choice of "own state or one store of the same location" per load.
            let options: Vec<Vec<Option<Event>>> = loads
                .iter()
                .map(|&(loc, _)| {
                    std::iter::once(None)
                        .chain(
                            stores
                                .iter()
                                .filter(|&&(v, _)| v == loc)
                                .map(|&(_, s)| Some(s)),
                        )
                        .collect()
                })
                .collect();
            let mut choice = vec![0usize; loads.len()];
            loop {
                let pairs: Vec<(Event, Event)> = loads
                    .iter()
                    .zip(&choice)
                    .zip(&options)
                    .filter_map(|((&(_, l), &c), opts)| opts[c].map(|s| (l, s)))
                    .collect();
                let possible = realised
                    .iter()
                    .any(|m| pairs.iter().all(|(l, s)| m.get(l) == Some(&Some(*s))));
                let verdict = oracle.check(&pairs.iter().copied().collect::<Combination>());
                checked += 1;
                truly_infeasible += u64::from(!possible);
                if let Verdict::Infeasible(rule) = verdict {
                    pruned += 1;
                    assert!(
                        !possible,
                        "program {program}: {rule:?} refutes the realised combination \
                         {pairs:?} of class {class}\n{p:#?}"
                    );
                }
                // Next choice (odometer).
                let mut i = 0;
                while i < choice.len() {
                    choice[i] += 1;
                    if choice[i] < options[i].len() {
                        break;
                    }
                    choice[i] = 0;
                    i += 1;
                }
                if i == choice.len() {
                    break;
                }
            }
        }
    }
    println!(
        "checked {checked} combinations: {truly_infeasible} truly infeasible, {pruned} pruned"
    );
    assert!(pruned > 0, "the rules should prune something");
}
