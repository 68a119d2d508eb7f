//! Abstract memory cells: the scalar leaves of every object's layout, with arrays summarized.
//!
//! Invariant: every byte of a typed object belongs to at most one cell; all elements of an array
//! share the cells of element 0, so such cells are never `singular` (they take weak updates).
//!
//! Each cell keeps its layout scalar's signedness, for display only.

use crate::ir::{Layout, ObjId, ObjectKind, Program, ScalarKind, Signedness};
use std::collections::BTreeMap;

/// A dense cell index; cells of one object are contiguous.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(pub u32);

impl CellId {
    /// The index this id stands for.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One scalar memory cell.
#[derive(Clone, Debug)]
pub struct CellInfo {
    /// The object it belongs to.
    pub obj: ObjId,
    /// Byte offset in the object, normalized to element 0 of every enclosing array.
    pub offset: u64,
    /// Size in bytes.
    pub size: u32,
    /// What it holds.
    pub kind: ScalarKind,
    /// How the source reads it (`Signed` when unknown). Display only.
    pub sign: Signedness,
    /// Whether it stands for exactly one concrete cell (not in an array, not on the heap), so
    /// that a store may replace its value (strong update).
    pub singular: bool,
    /// A readable name (`g`, `s.f`, `a[]`, `main::x`).
    pub name: String,
    /// How many concrete cells of one object it stands for (the product of the lengths of the
    /// enclosing arrays; 0 when a length is unknown).
    pub instances: u64,
}

/// All cells of a program.
#[derive(Clone, Debug, Default)]
pub struct Cells {
    /// Indexed by `CellId`.
    pub cells: Vec<CellInfo>,
    /// For each object, the range of its cells (empty for objects without a layout).
    pub by_obj: Vec<std::ops::Range<u32>>,
    /// The layouts of heap objects allocated once, inferred from their accesses
    /// (`memory::heap`); their cells are singular.
    inferred: BTreeMap<ObjId, Layout>,
}

/// The result of normalizing an access at a known offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Exactly one cell with this offset and size.
    Exact(CellId),
    /// The access covers parts of these cells, or bytes of no cell (padding, out of bounds).
    Overlap(Vec<CellId>),
}

impl Cells {
    /// Flattens the layout of every object of `program` into cells; `inferred` gives the
    /// layouts of heap objects allocated once.
    pub fn build(program: &Program, inferred: BTreeMap<ObjId, Layout>) -> Cells {
        let mut out = Cells {
            inferred,
            ..Cells::default()
        };
        for (i, obj) in program.objects.iter().enumerate() {
            let o = ObjId(i as u32);
            let start = out.cells.len() as u32;
            let once = out.inferred.contains_key(&o);
            if let Some(layout) = out.layout(program, o) {
                // Soundness: one heap object stands for every allocation its site makes, unless
                // the site runs once.
                let heap = matches!(obj.kind, ObjectKind::Heap(_)) && !once;
                let mut leaves = Vec::new();
                flatten(layout, 0, 1, &obj.name, &mut leaves);
                for Leaf {
                    offset,
                    size,
                    kind,
                    sign,
                    instances,
                    mut name,
                } in leaves
                {
                    if once {
                        name = format!("{}+{offset}", obj.name);
                    }
                    out.cells.push(CellInfo {
                        obj: o,
                        offset,
                        size,
                        kind,
                        sign,
                        singular: instances == 1 && !heap,
                        name,
                        instances,
                    });
                }
            }
            out.by_obj.push(start..out.cells.len() as u32);
        }
        out
    }

    /// The layout of `o`: its type's, or the one inferred for a heap object allocated once.
    pub fn layout<'a>(&'a self, program: &'a Program, o: ObjId) -> Option<&'a Layout> {
        (program.objects[o.index()].layout.as_ref()).or_else(|| self.inferred.get(&o))
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cells of `obj`.
    pub fn of(&self, obj: ObjId) -> impl Iterator<Item = CellId> + '_ {
        self.by_obj[obj.index()].clone().map(CellId)
    }

    /// The cell info.
    pub fn info(&self, c: CellId) -> &CellInfo {
        &self.cells[c.index()]
    }

    /// Finds the cells an access of `size` bytes at byte `offset` of `obj` touches, or `None`
    /// when the object has no layout.
    pub fn lookup(
        &self,
        layout: Option<&Layout>,
        obj: ObjId,
        offset: u64,
        size: u32,
    ) -> Option<Lookup> {
        let layout = layout?;
        let norm = normalize(layout, offset)?;
        let mut overlapping = Vec::new();
        let end = norm.saturating_add(u64::from(size));
        for c in self.of(obj) {
            let info = self.info(c);
            if info.offset == norm && info.size == size {
                return Some(Lookup::Exact(c));
            }
            let c_end = info.offset + u64::from(info.size);
            if info.offset < end && norm < c_end {
                overlapping.push(c);
            }
        }
        // Soundness: an access that spans array elements touches other normalized offsets;
        // covering every cell of the object is the safe answer then.
        if end > layout.size() || crosses_array_element(layout, offset, size) {
            return Some(Lookup::Overlap(self.of(obj).collect()));
        }
        Some(Lookup::Overlap(overlapping))
    }
}

/// Normalizes a byte offset to element 0 of every array it lies in; `None` when out of bounds.
pub fn normalize(layout: &Layout, offset: u64) -> Option<u64> {
    match layout {
        Layout::Scalar { size, .. } => (offset < u64::from(*size).max(1)).then_some(offset),
        Layout::Struct { size, fields, .. } => {
            if offset >= *size {
                return None;
            }
            for (foff, f) in fields.iter().rev() {
                if offset >= *foff {
                    let inner = offset - foff;
                    if inner < f.size() {
                        return normalize(f, inner).map(|n| n + foff);
                    }
                    // Padding: keep the offset; it matches no cell.
                    return Some(offset);
                }
            }
            Some(offset)
        }
        Layout::Array {
            elem,
            stride,
            count,
        } => {
            if *stride == 0 {
                return normalize(elem, offset);
            }
            if *count != 0 && offset >= stride.saturating_mul(*count) {
                return None;
            }
            normalize(elem, offset % stride)
        }
    }
}

/// Normalizes `offset` within arrays whose stride is `stride`: the offset of the same field in
/// element 0 of the innermost enclosing array with that stride. Used for variable GEP indices:
/// `a[i]` steps over whole elements, so it stays on the same summarized cell.
pub fn normalize_array_step(layout: &Layout, offset: u64, stride: u64) -> Option<u64> {
    match layout {
        Layout::Scalar { .. } => None,
        Layout::Struct { fields, .. } => {
            for (foff, f) in fields.iter().rev() {
                if offset >= *foff && offset - foff < f.size() {
                    return normalize_array_step(f, offset - foff, stride).map(|n| n + foff);
                }
            }
            None
        }
        Layout::Array {
            elem,
            stride: s,
            count,
        } => {
            if *s == 0 || (*count != 0 && offset >= s.saturating_mul(*count)) {
                return None;
            }
            let inner = offset % s;
            if let Some(n) = normalize_array_step(elem, inner, stride) {
                return Some(n);
            }
            (*s == stride).then_some(inner)
        }
    }
}

fn crosses_array_element(layout: &Layout, offset: u64, size: u32) -> bool {
    match layout {
        Layout::Scalar { .. } => false,
        Layout::Struct { fields, .. } => fields.iter().any(|(foff, f)| {
            offset >= *foff
                && offset - foff < f.size()
                && crosses_array_element(f, offset - foff, size)
        }),
        Layout::Array { elem, stride, .. } => {
            if *stride == 0 {
                return false;
            }
            let inner = offset % stride;
            inner + u64::from(size) > *stride || crosses_array_element(elem, inner, size)
        }
    }
}

/// A scalar of a layout, at its offset in the object.
struct Leaf {
    offset: u64,
    size: u32,
    kind: ScalarKind,
    sign: Signedness,
    instances: u64,
    name: String,
}

fn flatten(layout: &Layout, base: u64, instances: u64, name: &str, out: &mut Vec<Leaf>) {
    match layout {
        Layout::Scalar { size, kind, sign } => out.push(Leaf {
            offset: base,
            size: *size,
            kind: *kind,
            sign: *sign,
            instances,
            name: name.to_string(),
        }),
        Layout::Struct { fields, names, .. } => {
            for (i, (off, f)) in fields.iter().enumerate() {
                let field = Layout::field_name(names, i);
                flatten(f, base + off, instances, &format!("{name}.{field}"), out);
            }
        }
        Layout::Array { elem, count, .. } => {
            flatten(
                elem,
                base,
                instances.saturating_mul(*count),
                &format!("{name}[]"),
                out,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(size: u32) -> Layout {
        Layout::scalar(size, ScalarKind::Int)
    }

    #[test]
    fn arrays_fold_onto_element_zero() {
        // struct { int a; struct { short x; int y; } arr[4]; }
        let inner = Layout::Struct {
            size: 8,
            fields: vec![(0, int(2)), (4, int(4))],
            names: Vec::new(),
        };
        let l = Layout::Struct {
            size: 36,
            names: Vec::new(),
            fields: vec![
                (0, int(4)),
                (
                    4,
                    Layout::Array {
                        elem: Box::new(inner),
                        stride: 8,
                        count: 4,
                    },
                ),
            ],
        };
        assert_eq!(normalize(&l, 0), Some(0));
        assert_eq!(normalize(&l, 4 + 8 * 2 + 4), Some(8));
        assert_eq!(normalize(&l, 36), None);
        assert_eq!(normalize_array_step(&l, 4 + 8 * 3 + 4, 8), Some(8));
        assert_eq!(normalize_array_step(&l, 0, 8), None);
        let mut leaves = Vec::new();
        flatten(&l, 0, 1, "s", &mut leaves);
        assert_eq!(leaves.len(), 3);
        let instances: Vec<u64> = leaves.iter().map(|l| l.instances).collect();
        assert_eq!(instances, [1, 4, 4]);
    }
}
