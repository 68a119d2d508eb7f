//! The signedness of C integer types, from the debug info: a variable's or a member's type is
//! followed through typedefs, qualifiers, enums and arrays to its `DIBasicType`, whose encoding
//! says how C reads the value (`DW_ATE_unsigned`, `DW_ATE_unsigned_char`, `DW_ATE_boolean`
//! against `DW_ATE_signed`, `DW_ATE_signed_char`).
//!
//! Invariant: display only (`ir::Signedness`). A type that cannot be followed to an integer
//! basic type has no signedness here, and its values are shown as the IR reads them (signed).
//!
//! The encoding shows only in the node's printed form (the C API does not give it). The result
//! lands on `VarInfo::sign` (the variable of `llvm.dbg.value`), on the scalars of layouts
//! (`Layout::Scalar::sign`: globals, locals in memory, struct members, array elements) and on
//! `CondVar::sign`; unknown is `Signed`, the IR's own reading.

use std::collections::HashMap;

use llvm_sys::debuginfo::LLVMMetadataKind;
use llvm_sys::prelude::LLVMContextRef;

use super::ffi::{Md, MdOperand, Val};
use crate::ir::Signedness;

/// DWARF tags of the types that pass a signedness on from their base type.
const DW_TAG_ARRAY_TYPE: u16 = 0x01;
const DW_TAG_ENUMERATION_TYPE: u16 = 0x04;
const DW_TAG_MEMBER: u16 = 0x0d;
const DW_TAG_TYPEDEF: u16 = 0x16;
const DW_TAG_CONST_TYPE: u16 = 0x26;
const DW_TAG_VOLATILE_TYPE: u16 = 0x35;
const DW_TAG_ATOMIC_TYPE: u16 = 0x47;

/// The operand of `DIDerivedType` and `DICompositeType` that holds `baseType`, and that of
/// `DILocalVariable` and `DIGlobalVariable` that holds `type` (LLVM 19's layouts).
pub(crate) const BASE_TYPE_OPERAND: usize = 3;
const VARIABLE_TYPE_OPERAND: usize = 3;

use crate::limits::SIGNEDNESS_MAX_DEPTH as MAX_DEPTH;

/// The signedness of every integer type node of a module's debug info.
pub(crate) struct TypeSigns {
    ctx: LLVMContextRef,
    /// Type nodes that lead to an integer basic type.
    by_type: HashMap<Md, Signedness>,
}

impl TypeSigns {
    /// Resolves every type among `nodes` (the module's metadata, `ffi::metadata_nodes`).
    pub fn from_nodes(ctx: LLVMContextRef, nodes: &[Md]) -> TypeSigns {
        let mut out = TypeSigns {
            ctx,
            by_type: HashMap::new(),
        };
        let mut seen = HashMap::new();
        for &n in nodes {
            out.resolve(n, 0, &mut seen);
        }
        out
    }

    fn resolve(
        &mut self,
        t: Md,
        depth: u32,
        seen: &mut HashMap<Md, Option<Signedness>>,
    ) -> Option<Signedness> {
        if let Some(s) = seen.get(&t) {
            return *s;
        }
        if depth > MAX_DEPTH {
            return None;
        }
        use LLVMMetadataKind::*;
        let follows = match t.kind() {
            LLVMDIDerivedTypeMetadataKind => matches!(
                t.tag(),
                DW_TAG_MEMBER
                    | DW_TAG_TYPEDEF
                    | DW_TAG_CONST_TYPE
                    | DW_TAG_VOLATILE_TYPE
                    | DW_TAG_ATOMIC_TYPE
            ),
            LLVMDICompositeTypeMetadataKind => {
                matches!(t.tag(), DW_TAG_ARRAY_TYPE | DW_TAG_ENUMERATION_TYPE)
            }
            _ => false,
        };
        let sign = if matches!(t.kind(), LLVMDIBasicTypeMetadataKind) {
            encoding_sign(&t.print(self.ctx))
        } else if follows {
            match t.operands(self.ctx).get(BASE_TYPE_OPERAND) {
                Some(MdOperand::Node(base)) => self.resolve(*base, depth + 1, seen),
                _ => None,
            }
        } else {
            None
        };
        seen.insert(t, sign);
        if let Some(s) = sign {
            self.by_type.insert(t, s);
        }
        sign
    }

    /// The signedness of the type node `t` (a member's, an array's element's), if it leads to
    /// an integer.
    pub fn of_type(&self, t: Md) -> Option<Signedness> {
        self.by_type.get(&t).copied()
    }

    /// The signedness of a variable's type: `var` is a `DILocalVariable` or a
    /// `DIGlobalVariable`.
    pub fn of_variable(&self, var: Md) -> Option<Signedness> {
        self.of_type(variable_type(self.ctx, var)?)
    }

    /// The signedness of the global variable `g`'s type.
    pub fn of_global(&self, g: Val) -> Option<Signedness> {
        self.of_variable(global_variable(self.ctx, g)?)
    }
}

/// The type of a `DILocalVariable` or `DIGlobalVariable`.
pub(crate) fn variable_type(ctx: LLVMContextRef, var: Md) -> Option<Md> {
    match var.operands(ctx).get(VARIABLE_TYPE_OPERAND) {
        Some(MdOperand::Node(t)) => Some(*t),
        _ => None,
    }
}

/// The `DIGlobalVariable` of global `g`, from its `!dbg` attachment (a
/// `DIGlobalVariableExpression`, whose first operand is the variable).
pub(crate) fn global_variable(ctx: LLVMContextRef, g: Val) -> Option<Md> {
    let expr = g.global_debug_info()?;
    if !matches!(
        expr.kind(),
        LLVMMetadataKind::LLVMDIGlobalVariableExpressionMetadataKind
    ) {
        return None;
    }
    match expr.operands(ctx).first() {
        Some(MdOperand::Node(var)) => Some(*var),
        _ => None,
    }
}

/// How C reads a basic type, from its printed form's `encoding:`; `None` for floats and
/// anything else that is not an integer.
pub(crate) fn encoding_sign(text: &str) -> Option<Signedness> {
    let rest = &text[text.find("encoding: ")? + "encoding: ".len()..];
    let end = rest.find([',', ')']).unwrap_or(rest.len());
    match rest[..end].trim() {
        "DW_ATE_signed" | "DW_ATE_signed_char" => Some(Signedness::Signed),
        // `DW_ATE_UTF`: `char8_t`, `char16_t`, `char32_t` (unsigned).
        "DW_ATE_unsigned" | "DW_ATE_unsigned_char" | "DW_ATE_boolean" | "DW_ATE_UTF" => {
            Some(Signedness::Unsigned)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        let basic = |e: &str| format!("!5 = !DIBasicType(name: \"t\", size: 8, encoding: {e})");
        assert_eq!(
            encoding_sign(&basic("DW_ATE_unsigned_char")),
            Some(Signedness::Unsigned)
        );
        assert_eq!(
            encoding_sign(&basic("DW_ATE_boolean")),
            Some(Signedness::Unsigned)
        );
        assert_eq!(
            encoding_sign(&basic("DW_ATE_signed_char")),
            Some(Signedness::Signed)
        );
        assert_eq!(encoding_sign(&basic("DW_ATE_float")), None);
        assert_eq!(
            encoding_sign("!7 = !DIBasicType(name: \"unsigned int\", size: 32, encoding: DW_ATE_unsigned, flags: DIFlagX)"),
            Some(Signedness::Unsigned)
        );
        assert_eq!(encoding_sign("!DIBasicType(name: \"x\")"), None);
    }
}
