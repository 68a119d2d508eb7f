//! Types: the analysis type of a value, object layouts from the data layout, and the byte
//! offsets of `getelementptr`.

use llvm_sys::{LLVMTypeKind, LLVMValueKind};

use super::ffi::{DataLayout, Type, Val};
use super::field_names::FieldNames;
use crate::ir::{Layout, ScalarKind, Ty};

/// The analysis type of an LLVM type.
pub(crate) fn ty_of(t: Type) -> Ty {
    match t.kind() {
        LLVMTypeKind::LLVMIntegerTypeKind => {
            let w = t.int_width();
            if (1..=128).contains(&w) {
                Ty::Int(w)
            } else {
                Ty::Other
            }
        }
        LLVMTypeKind::LLVMPointerTypeKind => Ty::Ptr,
        _ => Ty::Other,
    }
}

/// The width used in `Cast`: bits of an integer, 0 for a pointer, the store size in bits for
/// anything else (floats).
pub(crate) fn cast_width(t: Type, dl: DataLayout) -> u32 {
    match t.kind() {
        LLVMTypeKind::LLVMIntegerTypeKind => t.int_width(),
        LLVMTypeKind::LLVMPointerTypeKind => 0,
        _ => u32::try_from(dl.store_size(t).saturating_mul(8)).unwrap_or(u32::MAX),
    }
}

/// Whether the type is a vector (whose operations the analysis does not model).
pub(crate) fn is_vector(t: Type) -> bool {
    matches!(
        t.kind(),
        LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMScalableVectorTypeKind
    )
}

/// The layout of a sized type; `None` for unsized or opaque types.
pub(crate) fn layout_of(t: Type, dl: DataLayout, names: &FieldNames) -> Option<Layout> {
    layout_rec(t, dl, names, 0)
}

fn layout_rec(t: Type, dl: DataLayout, names: &FieldNames, depth: u32) -> Option<Layout> {
    if !t.is_sized() || depth > 64 {
        return None;
    }
    let scalar = |kind, size: u64| Layout::scalar(u32::try_from(size).unwrap_or(u32::MAX), kind);
    Some(match t.kind() {
        LLVMTypeKind::LLVMIntegerTypeKind => scalar(ScalarKind::Int, dl.store_size(t)),
        LLVMTypeKind::LLVMPointerTypeKind => scalar(ScalarKind::Ptr, dl.store_size(t)),
        LLVMTypeKind::LLVMStructTypeKind => {
            let mut fields = t
                .struct_fields()
                .into_iter()
                .enumerate()
                .map(|(i, f)| {
                    let off = dl.field_offset(t, i as u32);
                    let l = layout_rec(f, dl, names, depth + 1)
                        .unwrap_or_else(|| scalar(ScalarKind::Other, dl.alloc_size(f)));
                    (off, l)
                })
                .collect::<Vec<_>>();
            let offsets: Vec<u64> = fields.iter().map(|(o, _)| *o).collect();
            let source = names.fields(&t.struct_name(), &offsets).unwrap_or_default();
            for ((_, l), f) in fields.iter_mut().zip(&source) {
                l.set_sign(f.sign);
            }
            Layout::Struct {
                size: dl.alloc_size(t),
                names: source.into_iter().map(|f| f.name).collect(),
                fields,
            }
        }
        LLVMTypeKind::LLVMArrayTypeKind => {
            let e = t.element();
            let elem = layout_rec(e, dl, names, depth + 1)
                .unwrap_or_else(|| scalar(ScalarKind::Other, dl.alloc_size(e)));
            Layout::Array {
                elem: Box::new(elem),
                stride: dl.alloc_size(e),
                count: t.array_len(),
            }
        }
        // Floats, vectors (possibly bit-packed), x86_fp80, target types: untracked blobs.
        _ => scalar(ScalarKind::Other, dl.alloc_size(t)),
    })
}

/// A constant integer as (sign-extended value, width); `i1 true` is 1. `None` for anything
/// else, including integers wider than 128 bits.
pub(crate) fn const_int(v: Val) -> Option<(i128, u32)> {
    if v.is_null() || v.kind() != LLVMValueKind::LLVMConstantIntValueKind {
        return None;
    }
    let t = v.ty();
    if t.kind() != LLVMTypeKind::LLVMIntegerTypeKind {
        return None;
    }
    let bits = t.int_width();
    let value = match bits {
        1 => i128::from(v.const_sext() != 0),
        2..=64 => i128::from(v.const_sext()),
        65..=128 => {
            // The C API has no wide accessor: read the printed form "i128 -42".
            let text = v.print();
            text.rsplit(' ').next()?.trim().parse::<i128>().ok()?
        }
        _ => return None,
    };
    Some((value, bits))
}

/// A decomposed `getelementptr`: constant byte offset plus (index value, stride) for each
/// variable index.
#[derive(Debug, Default)]
pub(crate) struct GepOffsets {
    /// Sum of the constant contributions, wrapping.
    pub offset: i64,
    /// Variable indices with the byte size of what each steps over.
    pub variable: Vec<(Val, u64)>,
}

/// Decomposes the indices of a GEP with source element type `src`. `None` when it cannot be
/// expressed (vector indices, unsized types, non-constant struct indices).
pub(crate) fn gep_offsets(src: Type, indices: &[Val], dl: DataLayout) -> Option<GepOffsets> {
    let mut out = GepOffsets::default();
    let mut cur = src;
    for (k, &idx) in indices.iter().enumerate() {
        if idx.is_null() || is_vector(idx.ty()) {
            return None;
        }
        if k == 0 {
            // The first index steps over whole source elements.
            if !cur.is_sized() {
                return None;
            }
            step(&mut out, idx, dl.alloc_size(cur))?;
            continue;
        }
        match cur.kind() {
            LLVMTypeKind::LLVMStructTypeKind => {
                let (i, _) = const_int(idx)?;
                let fields = cur.struct_fields();
                let i = usize::try_from(i).ok().filter(|&i| i < fields.len())?;
                if !cur.is_sized() {
                    return None;
                }
                let off = dl.field_offset(cur, i as u32);
                out.offset = out.offset.wrapping_add(off as i64);
                cur = fields[i];
            }
            LLVMTypeKind::LLVMArrayTypeKind => {
                let e = cur.element();
                if !e.is_sized() {
                    return None;
                }
                step(&mut out, idx, dl.alloc_size(e))?;
                cur = e;
            }
            // Indexing into a vector element, or anything else: not modelled.
            _ => return None,
        }
    }
    Some(out)
}

fn step(out: &mut GepOffsets, idx: Val, stride: u64) -> Option<()> {
    match const_int(idx) {
        Some((i, _)) => {
            let i = i64::try_from(i).ok()?;
            out.offset = out.offset.wrapping_add(i.wrapping_mul(stride as i64));
        }
        None => {
            // A non-constant integer index (constant expressions other than integers are not).
            if idx.ty().kind() != LLVMTypeKind::LLVMIntegerTypeKind {
                return None;
            }
            out.variable.push((idx, stride));
        }
    }
    Some(())
}
