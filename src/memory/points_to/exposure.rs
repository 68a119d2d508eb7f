//! Exposure: what escapes to code the analysis cannot see, to integers, or to other threads, and
//! how far (`Reach`); exposed objects expose what they contain.
//!
//! An address becomes an integer through a `ptrtoint` (instruction or constant,
//! `Program::hidden_addrs`), a bitcast to a non-pointer, a non-pointer load that may read pointer
//! bytes (an untyped heap object, an unknown offset, or a range that overlaps a pointer scalar), a
//! pointer stored outside a pointer scalar of a typed object, or a `memcpy` that does not keep
//! layouts; each exposes what it carries. The results of threads (what every thread entry returns,
//! the arguments of `pthread_exit`) are exposed, since `pthread_join` writes them into `*retval` as
//! an unknown pointer. A non-pointer load of an object's pointer bytes exposes its contents (once:
//! the object is marked `leaks`, and `close_exposed` exposes what it gains later), and a pointer
//! load that overlaps bytes a non-constant non-pointer store wrote (`int_written`, moved by
//! `memcpy`/`realloc`/`strcpy`) is `unknown`. Aggregate and vector values are not tracked: what
//! goes into them is exposed and what comes out is `unknown`.
//!
//! Invariant (outside a visit of an instruction): what an exposed or leaking object contains is
//! exposed, as far as the object is; an exposed object contains anything exposed once memory may
//! be written untracked.

use super::solver::Solver;
use super::{PtsSet, Reach, Target};
use crate::ir::{FuncId, Layout, ObjId, Program, ScalarKind};

impl Solver {
    pub(super) fn expose(&mut self, set: &PtsSet) -> bool {
        self.expose_to(set, Reach::THREAD)
    }

    /// Exposes what `set` names, as far as `reach` says (see [`Reach`]).
    pub(super) fn expose_to(&mut self, set: &PtsSet, reach: Reach) -> bool {
        let mut changed = false;
        for t in set.targets.iter() {
            changed |= match t {
                Target::Obj(o, _) => {
                    let mut new = self.pt.exposed.insert(*o);
                    new |= reach.called && self.called_exposed.insert(*o);
                    new |= reach.shared && self.pt.thread_exposed.insert(*o);
                    self.sched.reclose |= new;
                    new
                }
                Target::Func(func) => {
                    let mut new = self.pt.exposed_funcs.insert(*func);
                    let mut cb = reach.called && self.pt.called_back.insert(*func);
                    cb |= reach.called && self.pt.called_anywhere.insert(*func);
                    new |= cb;
                    self.sched.exposed_funcs_changed |= new;
                    new
                }
            };
        }
        changed
    }

    /// A declared function that keeps nothing gets `set`: it may call the functions `set`
    /// names, and those the objects it names hold (a `struct sigaction`'s handler, an
    /// allocator's table), at any time (`called_back`); `anywhere` when the function has no row
    /// known by its exact name in the library table, or one whose row says so, so that it may run
    /// them in threads of its own (`called_anywhere`).
    pub(super) fn call_back(&mut self, set: &PtsSet, anywhere: bool) -> bool {
        self.reads(set);
        let mut funcs: Vec<FuncId> = set.funcs().collect();
        for o in set.objects() {
            funcs.extend(self.pt.contents[o.index()].funcs());
        }
        let mut changed = false;
        for f in funcs {
            let mut new = self.pt.called_back.insert(f);
            new |= anywhere && self.pt.called_anywhere.insert(f);
            self.sched.exposed_funcs_changed |= new;
            changed |= new;
        }
        changed
    }

    /// How far an exposed object reaches (what its contents are exposed as).
    pub(super) fn reach_of(&self, o: ObjId) -> Reach {
        Reach {
            shared: self.pt.thread_exposed.contains(&o),
            called: self.called_exposed.contains(&o),
        }
    }

    /// Exposed objects expose what they contain, and may contain anything exposed when memory
    /// may be written untracked (`untracked_writes`).
    ///
    /// Soundness: only code the analysis does not see and writes through an `unknown` pointer
    /// put pointers into an exposed object without a store the analysis follows into that
    /// object; without either, its contents are what the program's own stores put there. A
    /// constant global (a `const` ops table handed to `register_chrdev`) is never written:
    /// writing an object defined `const` is undefined, and it lives in read-only memory.
    pub(super) fn close_exposed(&mut self, program: &Program) -> bool {
        let constant = |o: usize| match program.objects[o].kind {
            crate::ir::ObjectKind::Global(g) => program.globals[g.index()].is_constant,
            _ => false,
        };
        let mut changed = false;
        loop {
            let mut round = false;
            let exposed: Vec<ObjId> = self.pt.exposed.iter().copied().collect();
            for o in exposed {
                let c = self.pt.contents[o.index()].clone();
                round |= self.expose_to(&c, self.reach_of(o));
                if self.untracked_writes
                    && !self.pt.contents[o.index()].unknown
                    && !constant(o.index())
                {
                    self.pt.contents[o.index()].unknown = true;
                    self.touch(o);
                    round = true;
                }
            }
            for o in 0..self.leaks.len() {
                if self.leaks[o] {
                    let c = self.pt.contents[o].clone();
                    round |= self.expose_to(&c, Reach::LEAKED);
                }
            }
            if !round {
                break;
            }
            changed = true;
        }
        changed
    }

    /// A load of `size` bytes that is not a pointer load: every object it may read pointer
    /// bytes from exposes its contents.
    ///
    /// Soundness: an integer (or aggregate, or float) read of a pointer's bytes carries its
    /// address, which may come back as a pointer the analysis sees as `unknown`. A read that
    /// covers no pointer scalar of a typed object reads only bytes that no pointer was stored
    /// into without exposure (`expose_if_untyped_store`, `MemCopy`); an untyped object (heap
    /// memory), an unknown offset or a read that overlaps a pointer scalar exposes everything
    /// the object may hold.
    pub(super) fn expose_bytes_read(&mut self, program: &Program, ptr: &PtsSet, size: u64) -> bool {
        let mut changed = false;
        for t in ptr.targets.iter().copied().collect::<Vec<_>>() {
            let Target::Obj(o, off) = t else { continue };
            if self.pt.contents[o.index()].targets.is_empty() {
                continue;
            }
            let layout = program.objects[o.index()].layout.as_ref();
            let clean = match (layout, off) {
                (Some(l), Some(off)) => !overlaps_ptr(l, i128::from(off), i128::from(size)),
                (None, Some(off)) => !self.may_hold_ptr_bytes(o, off, size),
                _ => false,
            };
            // Cost: an object read as integers on every visit of its readers (kona reads
            // its big tables so) is exposed once, then again only when its contents grow.
            if !clean && !self.leaks[o.index()] {
                self.leaks[o.index()] = true;
                let c = self.pt.contents[o.index()].clone();
                changed |= self.expose_to(&c, Reach::LEAKED);
            }
        }
        changed
    }

    /// Whether bytes `[off, off + size)` of an object without a layout may hold pointer bytes.
    ///
    /// Soundness: pointer bytes get into an untyped object only by a pointer store, which puts
    /// its value at its exact offset (`fields`, an untyped object's keys are exact offsets) or,
    /// at a place not known, in `anywhere`; by a byte copy, which lands in `anywhere`
    /// (`copy_bytes`); or by code the analysis does not see, or a write through an `unknown`
    /// pointer, which make the contents `unknown`. An integer store of an address needs a
    /// `ptrtoint` or an integer read of pointer bytes first, which exposed the address already,
    /// and aggregate values expose what goes into them. So with `anywhere` empty and the
    /// contents known, the pointer bytes are the `POINTER_SIZE` bytes at each field's key, and a
    /// read that misses all of them reads no address. The solver visits the read again when
    /// the object's contents grow (`reads`, `touch`), so a pointer stored later is seen.
    fn may_hold_ptr_bytes(&self, o: ObjId, off: u64, size: u64) -> bool {
        let i = o.index();
        if self.pt.contents[i].unknown || !self.pt.anywhere[i].targets.is_empty() {
            return true;
        }
        let end = off.saturating_add(size);
        self.pt.fields[i].iter().any(|(&k, s)| {
            !s.targets.is_empty() && k < end && off < k.saturating_add(super::POINTER_SIZE)
        })
    }

    /// A pointer store: its value is exposed where it lands outside a pointer scalar of a typed
    /// object (a `long` cell written through `*(int **)&l`), since integer loads of typed bytes
    /// do not look for pointers. Untyped objects are left to `expose_bytes_read`.
    pub(super) fn expose_if_untyped_store(
        &mut self,
        program: &Program,
        ptr: &PtsSet,
        val: &PtsSet,
        size: u64,
    ) -> bool {
        if val.targets.is_empty() {
            return false;
        }
        let misplaced = ptr.objects_at().any(|(o, off)| {
            match (program.objects[o.index()].layout.as_ref(), off) {
                (None, _) => false,
                (Some(l), Some(off)) => !is_ptr_scalar_at(l, off, size),
                (Some(_), None) => true,
            }
        });
        if misplaced {
            self.expose_to(val, Reach::LEAKED)
        } else {
            false
        }
    }
}

/// Whether bytes `[off, off + size)` of an object of this layout overlap a pointer scalar
/// (conservatively true for a range across array elements that hold pointers).
fn overlaps_ptr(layout: &Layout, off: i128, size: i128) -> bool {
    let total = i128::from(layout.size().min(i64::MAX as u64));
    if off + size <= 0 || (off >= total && total > 0) {
        return false;
    }
    match layout {
        Layout::Scalar { kind, .. } => *kind == ScalarKind::Ptr,
        Layout::Struct { fields, .. } => fields
            .iter()
            .any(|(fo, fl)| overlaps_ptr(fl, off - i128::from(*fo), size)),
        Layout::Array { elem, stride, .. } => {
            let stride = i128::from(*stride);
            if stride > 0 && off >= 0 && size <= stride && off % stride + size <= stride {
                overlaps_ptr(elem, off % stride, size)
            } else {
                has_ptr(layout)
            }
        }
    }
}

/// Whether a layout holds a pointer scalar anywhere.
fn has_ptr(layout: &Layout) -> bool {
    match layout {
        Layout::Scalar { kind, .. } => *kind == ScalarKind::Ptr,
        Layout::Struct { fields, .. } => fields.iter().any(|(_, l)| has_ptr(l)),
        Layout::Array { elem, .. } => has_ptr(elem),
    }
}

/// Whether a pointer scalar of `size` bytes starts exactly at `off`.
fn is_ptr_scalar_at(layout: &Layout, off: u64, size: u64) -> bool {
    match layout {
        Layout::Scalar { size: s, kind, .. } => {
            off == 0 && u64::from(*s) == size && *kind == ScalarKind::Ptr
        }
        Layout::Struct { fields, .. } => fields.iter().any(|(fo, fl)| {
            off >= *fo && off < fo + fl.size().max(1) && is_ptr_scalar_at(fl, off - fo, size)
        }),
        Layout::Array { elem, stride, .. } => {
            *stride > 0 && is_ptr_scalar_at(elem, off % stride, size)
        }
    }
}

/// Whether a copy from `src` to `dst` keeps pointer bytes where integer loads look for them:
/// into untyped memory only (whose integer loads `expose_bytes_read` checks), or between
/// places of one layout at one offset (a struct assignment), where pointer bytes stay in
/// pointer scalars.
pub(super) fn copy_keeps_types(program: &Program, dst: &PtsSet, src: &PtsSet) -> bool {
    if dst.unknown || src.unknown {
        return false;
    }
    let layout = |o: ObjId| program.objects[o.index()].layout.as_ref();
    if dst.objects_at().all(|(o, _)| layout(o).is_none()) {
        return true;
    }
    let mut all = (dst.objects_at().chain(src.objects_at())).map(|(o, off)| (layout(o), off));
    let Some(first) = all.next() else {
        return true;
    };
    let same = |(l, off): (Option<&Layout>, Option<u64>)| {
        off == first.1 && l.zip(first.0).is_some_and(|(l, f)| l.same_shape(f))
    };
    first.0.is_some() && first.1.is_some() && all.all(same)
}
