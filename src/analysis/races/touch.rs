//! What memory one instruction reads or writes, for the race check: the objects and bytes of
//! its accesses, whether they are atomic, and how (a plain access, a library call, code the
//! analysis cannot see).
//!
//! Invariant: every byte an execution of the instruction reads or writes lies in one of its
//! touches' parts, or the touch is `unknown` (any exposed object); what is not an access in the
//! C sense (lock operations) touches nothing, a call of a library function with hidden state
//! (`Props::hidden`) also touches that state (a location of its own, not program memory), and
//! a declared function the library table
//! (`ir::lib`, `Props::race`) does not know touches what its pointer arguments point to (the
//! assumption of the race check, noted in the report), never more.
//!
//! The accesses are those of each thread's reached nodes (`ThreadResults::reached`): loads, stores,
//! atomics, `memset`/`memcpy`, the arguments of declared functions (what they point to, any byte),
//! inline assembly; each as parts (object, byte range or anywhere) plus whether it may touch
//! exposed memory through a lost address.
//! They are read from `InstKind::effects` (`ir::effects`): one touch per memory effect.

use crate::facts::Facts;
use crate::ir::effects::{self, Bytes, Effect};
use crate::ir::lib::{ArgAccess, CallTouch, HiddenState};
use crate::ir::{Callee, FuncId, GlobalId, Inst, ObjId, ObjectKind, Operand, Program, VarId};

/// A read or a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessKind {
    /// Reads the memory.
    Read,
    /// Writes it (an update reads and writes).
    Write,
}

impl AccessKind {
    /// `read` or `write`, as JSON and messages say it.
    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
        }
    }
}

/// Which bytes of an object an access touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum At {
    /// Any bytes of it.
    Anywhere,
    /// `len` bytes from `start`. `raw`: the offset is the address's own (a constant address,
    /// `&a[3]`); otherwise it is normalized over arrays (element 0 stands for any element).
    Bytes {
        /// First byte.
        start: u64,
        /// Number of bytes.
        len: u64,
        /// Whether `start` names one element of an array rather than any.
        raw: bool,
    },
}

/// One object an access may touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Part {
    /// The object.
    pub obj: ObjId,
    /// Where in it.
    pub at: At,
}

/// How an instruction accesses memory, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessVia {
    /// A load, store or atomic operation of the program.
    Direct,
    /// `memset`, `memcpy` (and struct copies).
    Bytes,
    /// A library function the race check knows (`strcpy`, `sprintf`, ...).
    Library(FuncId),
    /// A declared function it does not know: assumed to touch what its arguments point to.
    Assumed(FuncId),
    /// A call through a pointer that may reach code the analysis does not see.
    UnknownCall,
    /// Inline assembly that may write memory.
    Asm,
    /// `pthread_create` writing the thread handle, `pthread_join` writing the result.
    Threads,
    /// `realloc` reading and freeing its old block.
    Realloc,
    /// A write or flush of a stream, which updates what an `open_memstream` stream keeps
    /// (`Props::stream_keeps`) when the stream is one.
    Stream(FuncId),
}

/// One access of an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Touch {
    /// Read or write.
    pub kind: AccessKind,
    /// Whether it is atomic (C11 atomics, `__atomic`/`__sync` builtins); `volatile` is not.
    pub atomic: bool,
    /// The objects it may touch.
    pub parts: Vec<Part>,
    /// Whether it may also touch any exposed object (an address the analysis lost).
    pub unknown: bool,
    /// The hidden state of the C library it uses (`Props::hidden`), a location of its own that
    /// no program memory overlaps: then `parts` is empty and `unknown` false.
    pub hidden: Option<HiddenState>,
    /// How.
    pub via: AccessVia,
    /// Whether `parts` is the running thread's own copy of a thread-local variable (an
    /// address the thread computed with `llvm.threadlocal.address` and did not take from
    /// memory, `OwnCopies`): two such accesses in different threads touch different copies.
    pub own_copy: bool,
    /// The pointer whose points-to set `parts` and `unknown` come from, which the calling
    /// context may narrow (`refine`); `None` when they come from elsewhere.
    pub ptr: Option<Operand>,
}

/// The pointers to the running thread's own copy of a thread-local variable whose address
/// escapes (`Program::thread_local_addrs`: the front end leaves them unknown to the other
/// analyses, since some copy may reach another thread): per function, the variables computed
/// from the intrinsic's result without memory (`gep`s, copies, pointer casts), and the global.
///
/// Soundness: `llvm.threadlocal.address(@g)` is the address of the running thread's copy of
/// `g` (C11 6.2.4p4: each thread has its own object), and a value computed from it in the
/// same activation without going through memory is still into that copy (accesses stay inside
/// their object, README's assumption). Another thread reaches this copy only through an
/// address it got from memory or from a call, which the analysis sees as lost: those accesses
/// keep every pair, with every copy.
#[derive(Clone, Debug, Default)]
pub struct OwnCopies {
    of: std::collections::HashMap<(FuncId, VarId), (GlobalId, bool)>,
}

impl OwnCopies {
    /// The pointers to own copies of the program.
    pub fn of(program: &Program) -> OwnCopies {
        let mut out = OwnCopies::default();
        for a in &program.thread_local_addrs {
            for v in super::handover::derived_from(program, a.func, a.dst) {
                out.of.insert((a.func, v), (a.global, v == a.dst));
            }
        }
        out
    }

    /// The part of the own copy that `op` of `func` points into, if it does: its first `len`
    /// bytes when `op` is the copy's address itself, any byte of it otherwise.
    fn part(
        &self,
        program: &Program,
        func: FuncId,
        op: &Operand,
        len: Option<u64>,
    ) -> Option<Part> {
        let Operand::Var(v) = op else {
            return None;
        };
        let &(g, start) = self.of.get(&(func, *v))?;
        Some(Part {
            obj: program.globals[g.index()].obj,
            at: match (start, len) {
                (true, Some(len)) => At::Bytes {
                    start: 0,
                    len,
                    raw: true,
                },
                _ => At::Anywhere,
            },
        })
    }
}

/// What the streams of `open_memstream` keep (`Props::stream_keeps`): the objects their
/// pointer arguments may point to, in every call of the program, and whether one may be an
/// object whose address was lost.
#[derive(Clone, Debug, Default)]
pub struct StreamKept {
    parts: Vec<Part>,
    unknown: bool,
}

impl StreamKept {
    /// What every call of the program to an `open_memstream`-like function keeps.
    ///
    /// Soundness: the stream writes the buffer pointer and the size through the addresses it
    /// was given at each later flush, from whichever thread flushes (POSIX `open_memstream`);
    /// the race check does not know which stream a later call writes, so every call that may
    /// write or flush a stream (`Props::stream_update`) writes what any such call keeps.
    pub fn of(facts: &Facts<'_>) -> StreamKept {
        let program = facts.program;
        let mut out = StreamKept::default();
        for (fi, f) in program.funcs.iter().enumerate() {
            let func = FuncId(fi as u32);
            for inst in f.blocks.iter().flat_map(|b| &b.insts) {
                let crate::ir::InstKind::Call {
                    callee: Callee::Direct(g),
                    args,
                    ..
                } = &inst.kind
                else {
                    continue;
                };
                let Some(p) = program.funcs[g.index()].library_props() else {
                    continue;
                };
                for &i in p.stream_keeps {
                    let Some(a) = args.get(i) else { continue };
                    let pts = facts.memory.pts.of(program, func, a);
                    out.unknown |= pts.unknown;
                    for obj in pts.objects() {
                        let part = Part {
                            obj,
                            at: At::Anywhere,
                        };
                        if !out.parts.contains(&part) {
                            out.parts.push(part);
                        }
                    }
                }
            }
        }
        out
    }
}

/// The accesses of `inst`, an instruction of `func` (`kept`: what `open_memstream` streams keep;
/// `own`: the pointers to own copies of thread-local variables).
pub fn touches(
    facts: &Facts<'_>,
    kept: &StreamKept,
    own: &OwnCopies,
    func: FuncId,
    inst: &Inst,
) -> Vec<Touch> {
    let program = facts.program;
    let mut out = Vec::new();
    inst.kind.effects(|e| match e {
        Effect::Mem(m) => {
            let via = match m.via {
                effects::Via::Direct => AccessVia::Direct,
                effects::Via::Bytes => AccessVia::Bytes,
                effects::Via::Threads => AccessVia::Threads,
                effects::Via::Realloc => AccessVia::Realloc,
            };
            let len = match m.bytes {
                Bytes::Len(len) => crate::memory::constant_len(len),
                Bytes::Exactly(_) | Bytes::Word(_) | Bytes::Unknown => {
                    m.bytes.fixed(program.pointer_size)
                }
            };
            // An update (`atomicrmw`, `cmpxchg`) counts as a write; so does `realloc`'s use of
            // its old block, which it reads and then frees (C11 7.22.3.5; a free writes the
            // whole block, as ThreadSanitizer takes it).
            let kind = if m.access.writes() || m.via == effects::Via::Realloc {
                AccessKind::Write
            } else {
                AccessKind::Read
            };
            let own_part = own.part(program, func, m.ptr, len);
            let own_copy = own_part.is_some();
            let (parts, unknown) = match own_part {
                Some(part) => (vec![part], false),
                None => parts_of(facts, func, m.ptr, len),
            };
            out.push(Touch {
                kind,
                atomic: m.order.is_atomic(),
                parts,
                unknown,
                hidden: None,
                via,
                own_copy,
                ptr: Some(*m.ptr),
            });
        }
        Effect::Call {
            callee: Callee::Direct(g),
            args,
        } => {
            if !program.funcs[g.index()].is_defined {
                out.extend(library_call(facts, kept, own, func, *g, args));
            }
        }
        Effect::Call {
            callee: Callee::Indirect(op),
            args,
        } => {
            // A call through a pointer runs the defined functions it may name (their bodies
            // are analysed where they run, see `contexts`) and, when the pointer may name a
            // function the analysis does not see, that code: it may touch what its arguments
            // point to (the race check's assumption) and, not knowing which function it is,
            // anything exposed.
            let (_, unknown) = facts.memory.pts.callees(program, func, op);
            if !unknown {
                return;
            }
            out.extend((args.iter()).filter_map(|a| {
                arg_touch(
                    facts,
                    own,
                    func,
                    a,
                    AccessKind::Write,
                    AccessVia::UnknownCall,
                )
            }));
            out.push(Touch {
                kind: AccessKind::Write,
                atomic: false,
                parts: Vec::new(),
                unknown: true,
                hidden: None,
                via: AccessVia::UnknownCall,
                own_copy: false,
                ptr: None,
            });
        }
        Effect::Clobbers => out.push(Touch {
            kind: AccessKind::Write,
            atomic: false,
            parts: Vec::new(),
            unknown: true,
            hidden: None,
            via: AccessVia::Asm,
            own_copy: false,
            ptr: None,
        }),
        // Not accesses in the C sense: they order or exclude (and are atomic), or touch only a
        // fresh object. Issue 35: `calloc`'s zeroing of its fresh block is not an access.
        Effect::Allocates
        | Effect::Zeroes { .. }
        | Effect::CreatesThread { .. }
        | Effect::JoinsThread { .. }
        | Effect::Locks { .. }
        | Effect::Unlocks { .. }
        | Effect::AtomicSection(_)
        | Effect::Asserts
        | Effect::Assumes => {}
    });
    out
}

/// The accesses of a call of the declared function `g`: what its row says (`Props::race`).
/// A synchronisation or thread function's accesses to its objects are not data accesses (they
/// order and exclude, and are atomic); a function the table does not know is *assumed* to
/// write what its pointer arguments point to, which the report says.
fn library_call(
    facts: &Facts<'_>,
    kept: &StreamKept,
    own: &OwnCopies,
    func: FuncId,
    g: FuncId,
    args: &[Operand],
) -> Vec<Touch> {
    let props = facts.program.funcs[g.index()].library_props();
    let race = props.map_or(CallTouch::Assumed, |p| p.race);
    let mut out = Vec::new();
    // The library's hidden state (XSH 2.9.1): not memory of the program, so an access even
    // under `--assume-no-write`, which is about the program's memory.
    if let Some((state, access)) = props.and_then(|p| p.hidden) {
        out.push(Touch {
            kind: if access == ArgAccess::Read {
                AccessKind::Read
            } else {
                AccessKind::Write
            },
            atomic: false,
            parts: Vec::new(),
            unknown: false,
            hidden: Some(state),
            via: AccessVia::Library(g),
            own_copy: false,
            ptr: None,
        });
    }
    if facts.memory.pts.writes_nothing(g) {
        return out;
    }
    if props.is_some_and(|p| p.stream_update) && (!kept.parts.is_empty() || kept.unknown) {
        out.push(Touch {
            kind: AccessKind::Write,
            atomic: false,
            parts: kept.parts.clone(),
            unknown: kept.unknown,
            hidden: None,
            via: AccessVia::Stream(g),
            own_copy: false,
            ptr: None,
        });
    }
    out.extend(args_touches(facts, own, race, func, g, args));
    out
}

/// The accesses of a call of `g` to what its arguments point to, by its row's `race`.
fn args_touches(
    facts: &Facts<'_>,
    own: &OwnCopies,
    race: CallTouch,
    func: FuncId,
    g: FuncId,
    args: &[Operand],
) -> Vec<Touch> {
    match race {
        CallTouch::NotData => Vec::new(),
        CallTouch::Args { leading, rest } => (args.iter().enumerate())
            .filter_map(|(i, a)| {
                let kind = match leading.get(i).copied().unwrap_or(rest) {
                    ArgAccess::None => return None,
                    ArgAccess::Read => AccessKind::Read,
                    ArgAccess::Write => AccessKind::Write,
                };
                arg_touch(facts, own, func, a, kind, AccessVia::Library(g))
            })
            .collect(),
        CallTouch::Assumed => (args.iter())
            .filter_map(|a| {
                arg_touch(
                    facts,
                    own,
                    func,
                    a,
                    AccessKind::Write,
                    AccessVia::Assumed(g),
                )
            })
            .collect(),
    }
}

/// The access of a library function to what the pointer argument `a` points to (any byte of
/// those objects), if it is a pointer.
fn arg_touch(
    facts: &Facts<'_>,
    own: &OwnCopies,
    func: FuncId,
    a: &Operand,
    kind: AccessKind,
    via: AccessVia,
) -> Option<Touch> {
    if let Some(part) = own.part(facts.program, func, a, None) {
        return Some(Touch {
            kind,
            atomic: false,
            parts: vec![part],
            unknown: false,
            hidden: None,
            via,
            own_copy: true,
            ptr: None,
        });
    }
    let pts = facts.memory.pts.of(facts.program, func, a);
    let parts: Vec<Part> = (pts.objects())
        .map(|obj| Part {
            obj,
            at: At::Anywhere,
        })
        .collect();
    (!parts.is_empty() || pts.unknown).then_some(Touch {
        kind,
        atomic: false,
        parts,
        unknown: pts.unknown,
        hidden: None,
        via,
        own_copy: false,
        ptr: Some(*a),
    })
}

/// The objects an access of `len` bytes through `ptr` may touch, and whether it may touch any
/// exposed object.
fn parts_of(facts: &Facts<'_>, func: FuncId, ptr: &Operand, len: Option<u64>) -> (Vec<Part>, bool) {
    let pts = facts.memory.pts.of(facts.program, func, ptr);
    // Soundness: a dereferenced variable with an empty set is an address the analysis lost
    // (as `MemoryModel::access` takes it), not null.
    let unknown = pts.unknown || (pts.targets.is_empty() && matches!(ptr, Operand::Var(_)));
    let raw = matches!(ptr, Operand::GlobalAddr(..));
    let parts = (pts.objects_at())
        .map(|(obj, off)| Part {
            obj,
            at: match (off, len) {
                (Some(start), Some(len)) => At::Bytes { start, len, raw },
                _ => At::Anywhere,
            },
        })
        .collect();
    (parts, unknown)
}

/// Whether accesses at `a` and `b` of one object may touch a common byte. Offsets normalized
/// over arrays stand for every element, so they overlap an element's bytes wherever they are.
pub fn overlap(program: &Program, obj: ObjId, a: At, b: At) -> bool {
    let (
        At::Bytes {
            start: s1,
            len: l1,
            raw: r1,
        },
        At::Bytes {
            start: s2,
            len: l2,
            raw: r2,
        },
    ) = (a, b)
    else {
        return true;
    };
    let meets = |s1: u64, l1: u64, s2: u64, l2: u64| {
        s1 < s2.saturating_add(l2) && s2 < s1.saturating_add(l1)
    };
    if r1 && r2 {
        return meets(s1, l1, s2, l2);
    }
    let Some(layout) = program.objects[obj.index()].layout.as_ref() else {
        return meets(s1, l1, s2, l2);
    };
    // Soundness: an offset past the object's layout (`normalize` has none) may be any byte.
    match (
        crate::memory::cells::normalize(layout, s1),
        crate::memory::cells::normalize(layout, s2),
    ) {
        (Some(n1), Some(n2)) => meets(n1, l1, n2, l2),
        _ => true,
    }
}

/// Whether the object can be written at all: a constant global is not (writing it is
/// undefined), so it has no race.
pub fn writable(program: &Program, obj: ObjId) -> bool {
    match program.objects[obj.index()].kind {
        ObjectKind::Global(g) => !program.globals[g.index()].is_constant,
        _ => true,
    }
}
