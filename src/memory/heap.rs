//! Heap objects allocated once per execution: one concrete object each, with cells laid out
//! from the accesses the program makes to it.
//!
//! An allocation site (`malloc`, `calloc`, `realloc`, ...) is one heap object. When its block
//! runs at most once in every execution (`ir::once`), the object stands for at most one
//! concrete allocation, so its cells may take strong updates like a global's. Such an object
//! has no type; its layout is inferred: every load, store and atomic access whose address the
//! points-to analysis knows at an exact byte offset of the object (`PointsTo::compute` keeps
//! exact offsets for these objects) gives a scalar at that offset and size.
//!
//! Invariant: an inferred layout has one scalar per distinct (offset, size) and no two of them
//! overlap; an object whose accesses overlap without matching (an `int` at 0 and a `char` at 1)
//! gets none and stays untyped (every access reads any value). Soundness of the bytes between
//! the scalars: every access at a known offset has a scalar, so only accesses at an unknown
//! offset (which touch every cell of the object) and `memset`/`memcpy` (which touch the whole
//! region) reach them.
//!
//! Limits: the points-to analysis keeps exact byte offsets into such an object below 4 KB
//! (`MAX_SPAN`), and a layout has at most 64 scalars (`MAX_FIELDS`; more, and the object gets
//! none). Heap objects whose allocation may run more than once have no cells at all: every read of
//! them is any value.

use super::points_to::{PointsTo, Target};
use crate::ir::once::RunsOnce;
use crate::ir::{BlockId, FuncId, InstKind, Layout, ObjId, ObjectKind, Program, ScalarKind, Ty};
use std::collections::BTreeMap;

pub use crate::limits::MAX_SPAN;

use crate::limits::HEAP_MAX_FIELDS as MAX_FIELDS;

/// `once[o]`: `o` is a heap object whose allocation runs at most once per execution.
pub fn allocated_once(program: &Program) -> Vec<bool> {
    let mut out = vec![false; program.objects.len()];
    if !program
        .objects
        .iter()
        .any(|o| matches!(o.kind, ObjectKind::Heap(_)))
    {
        return out;
    }
    let once = RunsOnce::compute(program);
    for (fi, func) in program.funcs.iter().enumerate() {
        for (bi, b) in func.blocks.iter().enumerate() {
            for inst in &b.insts {
                if let InstKind::HeapAlloc { obj, .. } = &inst.kind {
                    out[obj.index()] = once.block(program, FuncId::from(fi), BlockId::from(bi));
                }
            }
        }
    }
    out
}

/// The layouts of the objects allocated once, from their accesses at exact offsets.
pub fn layouts(program: &Program, pts: &PointsTo, once: &[bool]) -> BTreeMap<ObjId, Layout> {
    let mut seen: BTreeMap<ObjId, BTreeMap<(u64, u32), ScalarKind>> = BTreeMap::new();
    if !once.contains(&true) {
        return BTreeMap::new();
    }
    let ptr_size = program.pointer_size;
    for (fi, func) in program.funcs.iter().enumerate() {
        let f = FuncId::from(fi);
        for inst in func.blocks.iter().flat_map(|b| &b.insts) {
            let (ptr, size, kind) = match &inst.kind {
                InstKind::Load { ptr, size, ty, .. } | InstKind::Store { ptr, size, ty, .. } => {
                    (ptr, *size, kind_of(*ty))
                }
                InstKind::AtomicRmw { ptr, bits, .. } | InstKind::CmpXchg { ptr, bits, .. } => {
                    match bits {
                        0 => (ptr, ptr_size, ScalarKind::Ptr),
                        b => (ptr, b.div_ceil(8), ScalarKind::Int),
                    }
                }
                // A mutex in the block (`&p->lock`): a cell for its first bytes (the smallest
                // lock type, a 4-byte spinlock), so that the lock is one concrete mutex for the
                // lock facts (`analysis::sync::locks`), as one in a global is.
                InstKind::Lock { lock, .. } | InstKind::Unlock { lock, .. } => {
                    (lock, 4, ScalarKind::Other)
                }
                _ => continue,
            };
            for t in pts.of(program, f, ptr).targets.iter() {
                if let Target::Obj(o, Some(off)) = t {
                    if once[o.index()] && program.objects[o.index()].layout.is_none() {
                        let e = seen.entry(*o).or_default();
                        let k = e.entry((*off, size)).or_insert(kind);
                        if *k != kind {
                            *k = ScalarKind::Other;
                        }
                    }
                }
            }
        }
    }
    (seen.into_iter())
        .filter_map(|(o, fields)| Some((o, layout(&fields)?)))
        .collect()
}

fn kind_of(ty: Ty) -> ScalarKind {
    match ty {
        Ty::Int(_) => ScalarKind::Int,
        Ty::Ptr => ScalarKind::Ptr,
        Ty::Other => ScalarKind::Other,
    }
}

/// Scalars at the given (offset, size), or `None` when two overlap or there are too many.
fn layout(fields: &BTreeMap<(u64, u32), ScalarKind>) -> Option<Layout> {
    if fields.len() > MAX_FIELDS {
        return None;
    }
    let mut end = 0;
    let mut out = Vec::new();
    for (&(off, size), &kind) in fields {
        if off < end {
            return None;
        }
        end = off + u64::from(size);
        out.push((off, Layout::scalar(size, kind)));
    }
    Some(Layout::Struct {
        size: end,
        fields: out,
        names: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::testing::with_facts;

    /// The cells of the heap objects of `src`, by name, with whether each is singular.
    fn heap_cells(src: &str) -> Vec<(String, bool)> {
        with_facts(src, |p, facts| {
            let cells = &facts.memory.cells;
            (cells.cells.iter())
                .filter(|c| matches!(p.objects[c.obj.index()].kind, ObjectKind::Heap(_)))
                .map(|c| (c.name.clone(), c.singular))
                .collect()
        })
    }

    #[test]
    fn an_object_allocated_once_gets_singular_cells() {
        let got = heap_cells(
            "#include <stdlib.h>\n\
             struct conf { int port; int verbose; } *cfg;\n\
             int main(void) { struct conf *c = malloc(sizeof *c);\n\
             if (!c) return 0; c->port = 1; c->verbose = 0; cfg = c; return cfg->port; }\n",
        );
        assert_eq!(
            got,
            [
                ("heap@t.c:3+0".to_string(), true),
                ("heap@t.c:3+4".to_string(), true)
            ]
        );
    }

    #[test]
    fn an_object_allocated_in_a_loop_or_by_a_function_called_twice_gets_none() {
        let in_loop = heap_cells(
            "#include <stdlib.h>\n\
             int *p;\n\
             int main(void) { for (int i = 0; i < 2; i++) { p = malloc(4); if (p) *p = i; }\n\
             return 0; }\n",
        );
        assert_eq!(in_loop, []);
        let twice = heap_cells(
            "#include <stdlib.h>\n\
             int *make(void) { int *p = malloc(4); if (p) *p = 1; return p; }\n\
             int main(void) { int *a = make(); int *b = make(); return a == b; }\n",
        );
        assert_eq!(twice, []);
    }

    #[test]
    fn overlapping_accesses_leave_the_object_untyped() {
        let int = ScalarKind::Int;
        let fields = BTreeMap::from([((0, 4), int), ((4, 1), int), ((5, 1), ScalarKind::Ptr)]);
        let Some(Layout::Struct { size, fields, .. }) = layout(&fields) else {
            panic!("disjoint scalars make a layout");
        };
        assert_eq!((size, fields.len()), (6, 3));
        let overlap = BTreeMap::from([((0, 4), int), ((1, 1), int)]);
        assert_eq!(layout(&overlap), None);
        let many = (0..=MAX_FIELDS as u64).map(|i| ((i, 1), int)).collect();
        assert_eq!(layout(&many), None);
    }
}
