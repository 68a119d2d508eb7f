//! Constants: operands, addresses of globals and functions (through constant expressions),
//! string literals, and the initial contents of globals.

use std::collections::HashMap;

use llvm_sys::{LLVMOpcode, LLVMTypeKind, LLVMValueKind};

use super::ffi::{DataLayout, Type, Val};
use super::layout::{const_int, gep_offsets, ty_of};
use crate::ir::{FuncId, GlobalId, InitCell, InitValue, Operand};

use crate::limits::MAX_UNKNOWN_ELEMS;

/// What a constant pointer points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Addr {
    /// A global plus a byte offset.
    Global(GlobalId, i64),
    /// A function plus a byte offset.
    Func(FuncId, i64),
    /// The null pointer plus a byte offset (an integer cast to a pointer).
    Null(i64),
}

/// Program-wide symbol tables, from LLVM values to ids.
pub(crate) struct Symbols {
    /// The module's data layout.
    pub dl: DataLayout,
    /// Functions.
    pub funcs: HashMap<Val, FuncId>,
    /// Functions by id.
    pub func_vals: Vec<Val>,
    /// Global variables.
    pub globals: HashMap<Val, GlobalId>,
    /// Source names and signedness of struct fields.
    pub field_names: super::field_names::FieldNames,
    /// The signedness of the debug info's integer types.
    pub type_signs: super::signedness::TypeSigns,
}

impl Symbols {
    /// The address a constant pointer expression denotes, if it is a known one.
    pub fn const_addr(&self, v: Val) -> Option<Addr> {
        self.const_addr_rec(v, 0)
    }

    fn const_addr_rec(&self, v: Val, depth: u32) -> Option<Addr> {
        if v.is_null() || depth > 32 {
            return None;
        }
        match v.kind() {
            LLVMValueKind::LLVMGlobalVariableValueKind => {
                Some(Addr::Global(*self.globals.get(&v)?, 0))
            }
            LLVMValueKind::LLVMFunctionValueKind => Some(Addr::Func(*self.funcs.get(&v)?, 0)),
            LLVMValueKind::LLVMGlobalAliasValueKind => self.const_addr_rec(v.aliasee(), depth + 1),
            LLVMValueKind::LLVMConstantPointerNullValueKind => Some(Addr::Null(0)),
            LLVMValueKind::LLVMConstantExprValueKind => match v.const_opcode() {
                LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast => {
                    self.const_addr_rec(v.operand(0), depth + 1)
                }
                LLVMOpcode::LLVMGetElementPtr => {
                    let base = self.const_addr_rec(v.operand(0), depth + 1)?;
                    let idx: Vec<Val> = (1..v.num_operands()).map(|i| v.operand(i)).collect();
                    let g = gep_offsets(v.gep_source_type(), &idx, self.dl)?;
                    if !g.variable.is_empty() {
                        return None;
                    }
                    Some(match base {
                        Addr::Global(id, o) => Addr::Global(id, o.wrapping_add(g.offset)),
                        Addr::Func(id, o) => Addr::Func(id, o.wrapping_add(g.offset)),
                        Addr::Null(o) => Addr::Null(o.wrapping_add(g.offset)),
                    })
                }
                LLVMOpcode::LLVMIntToPtr => {
                    let (k, _) = const_int(v.operand(0))?;
                    Some(Addr::Null(i64::try_from(k).ok()?))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Collects into `out` the globals and functions whose address constant `v` holds in a form
    /// the lowering does not track: under a `ptrtoint` (or any constant expression that
    /// `const_addr` does not resolve), in a vector, or at an offset from a function.
    ///
    /// Soundness: `const_operand` and `init_cells` turn such a constant into an unknown value,
    /// so the points-to analysis would never see the address; an unknown pointer rebuilt from it
    /// (`(int *)(uintptr_t)&x`, `*(int *)tbl[0]`) points only to *exposed* objects. Exposing
    /// every address collected here keeps that set sound. Tracked addresses (a global plus a
    /// constant offset, a function) need nothing: they reach the analysis as operands or
    /// `InitValue`s.
    pub fn hidden_addrs(
        &self,
        v: Val,
        hidden: bool,
        seen: &mut std::collections::HashSet<(Val, bool)>,
        out: &mut Vec<Operand>,
    ) {
        if v.is_null() || !seen.insert((v, hidden)) {
            return;
        }
        match v.kind() {
            LLVMValueKind::LLVMGlobalVariableValueKind => {
                if let (true, Some(g)) = (hidden, self.globals.get(&v)) {
                    out.push(Operand::GlobalAddr(*g, 0));
                }
            }
            LLVMValueKind::LLVMFunctionValueKind => {
                if let (true, Some(f)) = (hidden, self.funcs.get(&v)) {
                    out.push(Operand::FuncAddr(*f));
                }
            }
            LLVMValueKind::LLVMGlobalAliasValueKind => {
                self.hidden_addrs(v.aliasee(), hidden, seen, out)
            }
            LLVMValueKind::LLVMConstantExprValueKind => {
                let tracked = v.ty().kind() == LLVMTypeKind::LLVMPointerTypeKind
                    && matches!(
                        self.const_addr(v),
                        Some(Addr::Global(..) | Addr::Func(_, 0) | Addr::Null(_))
                    );
                for i in 0..v.num_operands() {
                    self.hidden_addrs(v.operand(i), hidden || !tracked, seen, out);
                }
            }
            LLVMValueKind::LLVMConstantStructValueKind
            | LLVMValueKind::LLVMConstantArrayValueKind => {
                for i in 0..v.num_operands() {
                    self.hidden_addrs(v.operand(i), hidden, seen, out);
                }
            }
            // Vector elements become unknown values (`unknown_cells`, vector operations).
            LLVMValueKind::LLVMConstantVectorValueKind => {
                for i in 0..v.num_operands() {
                    self.hidden_addrs(v.operand(i), true, seen, out);
                }
            }
            _ => {}
        }
    }

    /// The globals and functions whose symbol the text of an inline `asm` names (as a whole
    /// identifier), which it may read, write or call without an operand.
    pub fn named_in_asm(&self, text: &str) -> Vec<Operand> {
        let words: std::collections::HashSet<&str> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$')))
            .filter(|w| !w.is_empty())
            .collect();
        let mut out: Vec<Operand> = Vec::new();
        for (v, g) in &self.globals {
            if words.contains(v.name().as_str()) {
                out.push(Operand::GlobalAddr(*g, 0));
            }
        }
        for (v, f) in &self.funcs {
            if words.contains(v.name().as_str()) {
                out.push(Operand::FuncAddr(*f));
            }
        }
        out.sort_by_key(|o| match o {
            Operand::GlobalAddr(g, _) => (0, g.index()),
            Operand::FuncAddr(f) => (1, f.index()),
            _ => (2, 0),
        });
        out
    }

    /// A constant as an operand; anything not tracked is `Unknown` of its type.
    pub fn const_operand(&self, v: Val) -> Operand {
        if v.is_null() {
            return Operand::Unknown(crate::ir::Ty::Other);
        }
        if let Some((value, bits)) = const_int(v) {
            return Operand::Int { value, bits };
        }
        let unknown = Operand::Unknown(ty_of(v.ty()));
        if v.ty().kind() != LLVMTypeKind::LLVMPointerTypeKind {
            return unknown;
        }
        match self.const_addr(v) {
            Some(Addr::Global(g, off)) => Operand::GlobalAddr(g, off),
            Some(Addr::Func(f, 0)) => Operand::FuncAddr(f),
            Some(Addr::Null(0)) => Operand::Null,
            _ => unknown,
        }
    }

    /// The C string a constant pointer points to (a string literal), without the final NUL.
    pub fn const_string(&self, v: Val) -> Option<String> {
        let Addr::Global(_, off) = self.const_addr(v)? else {
            return None;
        };
        let g = self.global_val_of(v)?;
        let init = g.initializer();
        if init.is_null() || init.kind() != LLVMValueKind::LLVMConstantDataArrayValueKind {
            return None;
        }
        let elem = init.ty().element();
        if elem.kind() != LLVMTypeKind::LLVMIntegerTypeKind || elem.int_width() != 8 {
            return None;
        }
        let bytes = init.as_bytes();
        let rest = bytes.get(usize::try_from(off).ok()?..)?;
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        Some(String::from_utf8_lossy(&rest[..end]).into_owned())
    }

    /// The global variable a constant pointer is based on.
    fn global_val_of(&self, v: Val) -> Option<Val> {
        let mut cur = v;
        for _ in 0..32 {
            if cur.is_null() {
                return None;
            }
            match cur.kind() {
                LLVMValueKind::LLVMGlobalVariableValueKind => return Some(cur),
                LLVMValueKind::LLVMGlobalAliasValueKind => cur = cur.aliasee(),
                LLVMValueKind::LLVMConstantExprValueKind => cur = cur.operand(0),
                _ => return None,
            }
        }
        None
    }

    /// The initial contents of a global's initializer: one cell per non-zero scalar.
    pub fn init_cells(&self, init: Val) -> Vec<InitCell> {
        let mut cells = Vec::new();
        self.cells_rec(init, init.ty(), 0, &mut cells, 0);
        cells
    }

    fn cells_rec(&self, c: Val, t: Type, off: u64, out: &mut Vec<InitCell>, depth: u32) {
        let dl = self.dl;
        if depth > 64 || !t.is_sized() {
            return;
        }
        let size = |t: Type| u32::try_from(dl.store_size(t)).unwrap_or(u32::MAX);
        match c.kind() {
            LLVMValueKind::LLVMConstantAggregateZeroValueKind
            | LLVMValueKind::LLVMConstantPointerNullValueKind => {}
            LLVMValueKind::LLVMUndefValueValueKind | LLVMValueKind::LLVMPoisonValueKind => {
                unknown_cells(t, off, dl, out, depth)
            }
            LLVMValueKind::LLVMConstantIntValueKind => match const_int(c) {
                Some((0, _)) => {}
                Some((v, _)) => out.push(InitCell {
                    offset: off,
                    size: size(t),
                    value: InitValue::Int(v),
                }),
                None => out.push(InitCell {
                    offset: off,
                    size: size(t),
                    value: InitValue::Unknown,
                }),
            },
            LLVMValueKind::LLVMConstantFPValueKind => {
                let d = c.const_double();
                if !(d == 0.0 && d.is_sign_positive()) {
                    out.push(InitCell {
                        offset: off,
                        size: size(t),
                        value: InitValue::Unknown,
                    });
                }
            }
            LLVMValueKind::LLVMConstantStructValueKind
                if t.kind() == LLVMTypeKind::LLVMStructTypeKind =>
            {
                for (i, ft) in t.struct_fields().into_iter().enumerate() {
                    let e = c.operand(i as u32);
                    let fo = dl.field_offset(t, i as u32);
                    if !e.is_null() {
                        self.cells_rec(e, ft, off + fo, out, depth + 1);
                    }
                }
            }
            LLVMValueKind::LLVMConstantArrayValueKind
                if t.kind() == LLVMTypeKind::LLVMArrayTypeKind =>
            {
                let et = t.element();
                let stride = dl.alloc_size(et);
                for i in 0..c.num_operands() {
                    self.cells_rec(
                        c.operand(i),
                        et,
                        off + u64::from(i) * stride,
                        out,
                        depth + 1,
                    );
                }
            }
            LLVMValueKind::LLVMConstantDataArrayValueKind
                if t.kind() == LLVMTypeKind::LLVMArrayTypeKind =>
            {
                let et = t.element();
                if et.kind() == LLVMTypeKind::LLVMIntegerTypeKind && et.int_width() == 8 {
                    for (i, b) in c.as_bytes().into_iter().enumerate() {
                        if b != 0 {
                            let value = InitValue::Int(i128::from(b as i8));
                            out.push(InitCell {
                                offset: off + i as u64,
                                size: 1,
                                value,
                            });
                        }
                    }
                } else {
                    let stride = dl.alloc_size(et);
                    let n = u32::try_from(t.array_len()).unwrap_or(u32::MAX);
                    for i in 0..n {
                        let e = c.aggregate_element(i);
                        if e.is_null() {
                            break;
                        }
                        self.cells_rec(e, et, off + u64::from(i) * stride, out, depth + 1);
                    }
                }
            }
            _ if t.kind() == LLVMTypeKind::LLVMPointerTypeKind => {
                let value = match self.const_addr(c) {
                    Some(Addr::Null(0)) => return,
                    Some(Addr::Global(g, o)) => InitValue::GlobalAddr(g, o),
                    Some(Addr::Func(f, 0)) => InitValue::FuncAddr(f),
                    Some(Addr::Null(k)) => InitValue::Int(i128::from(k)),
                    _ => InitValue::Unknown,
                };
                out.push(InitCell {
                    offset: off,
                    size: size(t),
                    value,
                });
            }
            // Vectors, odd constant expressions, block addresses: unknown bytes.
            _ => unknown_cells(t, off, dl, out, depth),
        }
    }
}

/// `Unknown` cells covering every scalar of a value of type `t` at `off`.
fn unknown_cells(t: Type, off: u64, dl: DataLayout, out: &mut Vec<InitCell>, depth: u32) {
    if depth > 64 || !t.is_sized() {
        return;
    }
    let blob = |out: &mut Vec<InitCell>, off: u64, bytes: u64| {
        if bytes > 0 {
            let size = u32::try_from(bytes).unwrap_or(u32::MAX);
            out.push(InitCell {
                offset: off,
                size,
                value: InitValue::Unknown,
            });
        }
    };
    match t.kind() {
        LLVMTypeKind::LLVMStructTypeKind => {
            for (i, ft) in t.struct_fields().into_iter().enumerate() {
                unknown_cells(ft, off + dl.field_offset(t, i as u32), dl, out, depth + 1);
            }
        }
        LLVMTypeKind::LLVMArrayTypeKind => {
            let et = t.element();
            let stride = dl.alloc_size(et);
            let n = t.array_len();
            for i in 0..n.min(MAX_UNKNOWN_ELEMS) {
                unknown_cells(et, off + i * stride, dl, out, depth + 1);
            }
            if n > MAX_UNKNOWN_ELEMS {
                let start = MAX_UNKNOWN_ELEMS * stride;
                blob(out, off + start, (n * stride).saturating_sub(start));
            }
        }
        _ => blob(out, off, dl.store_size(t)),
    }
}
