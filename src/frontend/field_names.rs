//! Source names of struct fields, read from the module's debug info, so that memory cells and
//! interpreter locations read `dev.mode` rather than `dev.1`; and the signedness of each
//! field's C type, so that their values are shown as C reads them.
//!
//! Invariant: names and signedness are cosmetic. A struct whose fields cannot be matched one to one with the
//! debug info (unions, bit-fields sharing a storage unit, padding, two C structs of one name
//! with different members) keeps the field numbers; nothing but display strings depends on it.
//!
//! Matching: the module's `DICompositeType` members are matched to the LLVM fields by byte offset;
//! a struct without a tag or typedef (LLVM's `struct.anon*`) is found through the debug info of a
//! global of that type.

use std::collections::HashMap;

use super::ffi::{Md, MdOperand};
use super::signedness::TypeSigns;
use crate::ir::Signedness;

/// Field names per C struct name (the name after `struct.` in the LLVM type), by byte offset.
#[derive(Default, Debug, PartialEq)]
pub(crate) struct FieldNames {
    by_struct: HashMap<String, Option<Vec<Member>>>,
    /// Anonymous structs by their LLVM name (`anon.0`), matched through a global of that
    /// type (`static struct { .. } dev;`), whose debug info names its struct.
    by_llvm: HashMap<String, Option<Vec<Member>>>,
}

/// One member of a C struct.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Member {
    /// Byte offset.
    offset: u64,
    name: String,
    /// The signedness of its type (of its elements, for an array); `Signed` when it is not an
    /// integer or unknown.
    sign: Signedness,
}

/// The source name and signedness of one LLVM struct field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    pub name: String,
    pub sign: Signedness,
}

/// The name clang gives the LLVM type of a struct that has neither a tag nor a typedef.
const ANON: &str = "anon";

/// DWARF tags of the debug-info types read here.
const DW_TAG_MEMBER: u16 = 0x0d;
const DW_TAG_STRUCTURE_TYPE: u16 = 0x13;
const DW_TAG_TYPEDEF: u16 = 0x16;

/// `DIDerivedType`'s operand that holds its `baseType`, `DICompositeType`'s that holds its
/// `elements` (LLVM 19's layout of these nodes).
const BASE_TYPE_OPERAND: usize = 3;
const ELEMENTS_OPERAND: usize = 4;

impl FieldNames {
    /// Reads the `DICompositeType` structs of the module's debug info (their members, the
    /// members' offsets and signedness), and the typedef names of anonymous ones: what
    /// [`FieldNames::from_module_text`] reads from the module's textual form, without printing
    /// it (tens of megabytes for a large program).
    #[cfg(test)]
    pub fn from_module(m: llvm_sys::prelude::LLVMModuleRef) -> FieldNames {
        // SAFETY: `m` is a live module.
        let ctx = unsafe { llvm_sys::core::LLVMGetModuleContext(m) };
        let nodes = super::ffi::metadata_nodes(m);
        FieldNames::from_nodes(ctx, &nodes, &TypeSigns::from_nodes(ctx, &nodes))
    }

    /// [`FieldNames::from_module`] from the module's metadata nodes (`ffi::metadata_nodes`)
    /// and the signedness of its types.
    pub fn from_nodes(
        ctx: llvm_sys::prelude::LLVMContextRef,
        nodes: &[Md],
        signs: &TypeSigns,
    ) -> FieldNames {
        use llvm_sys::debuginfo::LLVMMetadataKind::*;
        let mut typedefs: HashMap<Md, Vec<String>> = HashMap::new();
        let mut structs: Vec<(Md, Md)> = Vec::new();
        for &n in nodes {
            match n.kind() {
                LLVMDIDerivedTypeMetadataKind if n.tag() == DW_TAG_TYPEDEF => {
                    let name = n.type_name();
                    let base = n.operands(ctx).get(BASE_TYPE_OPERAND).copied();
                    if let (false, Some(MdOperand::Node(base))) = (name.is_empty(), base) {
                        typedefs.entry(base).or_default().push(name);
                    }
                }
                LLVMDICompositeTypeMetadataKind if n.tag() == DW_TAG_STRUCTURE_TYPE => {
                    if let Some(MdOperand::Node(e)) = n.operands(ctx).get(ELEMENTS_OPERAND) {
                        structs.push((n, *e));
                    }
                }
                _ => {}
            }
        }
        let mut out = FieldNames::default();
        for (s, elements) in structs {
            let Some(members) = members_of(ctx, elements, signs) else {
                continue;
            };
            let own = Some(s.type_name()).filter(|n| !n.is_empty());
            let aliases: Vec<String> = typedefs.get(&s).into_iter().flatten().cloned().collect();
            // `static struct { .. } dev;`: clang names the LLVM type `struct.anon` (`.0`, `.1`
            // for more); several different ones make the name untrusted (`insert`).
            let anon = (own.is_none() && aliases.is_empty()).then(|| ANON.to_string());
            for n in own.into_iter().chain(aliases).chain(anon) {
                out.insert(&n, &members);
            }
        }
        out
    }

    /// Reads the `DICompositeType` structs of a module's textual form (its members and their
    /// offsets), and the typedef names of anonymous ones (the reference of
    /// [`FieldNames::from_module`] in the tests).
    #[cfg(test)]
    pub fn from_module_text(text: &str) -> FieldNames {
        let nodes: HashMap<&str, &str> = text
            .lines()
            .filter_map(|l| {
                let (id, rest) = l.split_once(" = ")?;
                id.starts_with('!').then_some((id, rest))
            })
            .collect();
        // `typedef struct { .. } dev_t;`: clang names the LLVM type after the typedef.
        let mut typedefs: HashMap<&str, Vec<&str>> = HashMap::new();
        for body in nodes.values() {
            if body.contains("tag: DW_TAG_typedef") {
                if let (Some(base), Some(name)) = (field(body, "baseType"), field(body, "name")) {
                    typedefs.entry(base).or_default().push(name);
                }
            }
        }
        let mut out = FieldNames::default();
        for (id, body) in &nodes {
            if !body.contains("!DICompositeType(tag: DW_TAG_structure_type") {
                continue;
            }
            let Some(members) = field(body, "elements").and_then(|e| members(&nodes, e)) else {
                continue;
            };
            let own: Vec<&str> = field(body, "name").into_iter().collect();
            let aliases: Vec<&str> = typedefs.get(id).into_iter().flatten().copied().collect();
            let anon = (own.is_empty() && aliases.is_empty()).then_some(ANON);
            for n in own.into_iter().chain(aliases).chain(anon) {
                out.insert(n.trim_matches('"'), &members);
            }
        }
        out
    }

    /// Matches anonymous structs to their LLVM types through the globals of those types: a
    /// global whose value type is `struct.anon*` and whose debug-info type is a struct with
    /// members names that LLVM type's fields.
    pub fn add_globals(
        &mut self,
        ctx: llvm_sys::prelude::LLVMContextRef,
        globals: &[super::ffi::Val],
        signs: &TypeSigns,
    ) {
        for &g in globals {
            let ty = g.global_value_type();
            if ty.kind() != llvm_sys::LLVMTypeKind::LLVMStructTypeKind {
                continue;
            }
            let llvm = ty.struct_name();
            let Some(base) = llvm.strip_prefix("struct.").filter(|b| b.starts_with(ANON)) else {
                continue;
            };
            let Some(elements) = global_struct_elements(ctx, g) else {
                continue;
            };
            let Some(members) = members_of(ctx, elements, signs) else {
                continue;
            };
            let slot = (self.by_llvm)
                .entry(base.to_string())
                .or_insert_with(|| Some(members.clone()));
            if slot.as_deref() != Some(&members[..]) {
                *slot = None;
            }
        }
    }

    fn insert(&mut self, name: &str, members: &[Member]) {
        let slot = self
            .by_struct
            .entry(name.to_string())
            .or_insert_with(|| Some(members.to_vec()));
        // Two different structs of one name (separate files): neither is trusted.
        if slot.as_deref() != Some(members) {
            *slot = None;
        }
    }

    /// The names and signedness of the fields of the LLVM struct type named `llvm_name` at
    /// these byte offsets, when every field matches exactly one member at its offset.
    pub fn fields(&self, llvm_name: &str, offsets: &[u64]) -> Option<Vec<Field>> {
        let base = llvm_name.strip_prefix("struct.")?;
        // clang suffixes `.0`, `.1` to a struct name defined again in another file.
        let members = (self.by_llvm.get(base))
            .or_else(|| self.by_struct.get(base))
            .or_else(|| {
                let (stem, suffix) = base.rsplit_once('.')?;
                suffix.parse::<u32>().ok()?;
                self.by_struct.get(stem)
            })?;
        let members = members.as_ref()?;
        offsets
            .iter()
            .map(|off| {
                let mut at = members.iter().filter(|m| m.offset == *off);
                match (at.next(), at.next()) {
                    (Some(m), None) => Some(Field {
                        name: m.name.clone(),
                        sign: m.sign,
                    }),
                    _ => None,
                }
            })
            .collect()
    }
}

/// The `elements` of the struct type of global `g`'s debug info (its `DIGlobalVariable`'s
/// type, through `const`/`volatile`), if it is a struct.
fn global_struct_elements(
    ctx: llvm_sys::prelude::LLVMContextRef,
    g: super::ffi::Val,
) -> Option<Md> {
    use llvm_sys::debuginfo::LLVMMetadataKind::*;
    let var = super::signedness::global_variable(ctx, g)?;
    let mut ty = super::signedness::variable_type(ctx, var)?;
    // `const`/`volatile` qualifiers (bounded: qualifiers do not nest deeply).
    for _ in 0..4 {
        if !matches!(ty.kind(), LLVMDIDerivedTypeMetadataKind) || ty.tag() == DW_TAG_MEMBER {
            break;
        }
        if ty.tag() == DW_TAG_TYPEDEF {
            return None;
        }
        let MdOperand::Node(base) = *ty.operands(ctx).get(BASE_TYPE_OPERAND)? else {
            return None;
        };
        ty = base;
    }
    if !matches!(ty.kind(), LLVMDICompositeTypeMetadataKind) || ty.tag() != DW_TAG_STRUCTURE_TYPE {
        return None;
    }
    match ty.operands(ctx).get(ELEMENTS_OPERAND)? {
        MdOperand::Node(e) => Some(*e),
        _ => None,
    }
}

/// The members of an `elements` tuple: byte offset, name and signedness of each
/// `DW_TAG_member`; `None` when it is not a tuple of nodes or when a member is a bit-field or
/// unnamed (as [`members`]).
fn members_of(
    ctx: llvm_sys::prelude::LLVMContextRef,
    elements: Md,
    signs: &TypeSigns,
) -> Option<Vec<Member>> {
    if !matches!(
        elements.kind(),
        llvm_sys::debuginfo::LLVMMetadataKind::LLVMMDTupleMetadataKind
    ) {
        return None;
    }
    let mut out = Vec::new();
    for op in elements.operands(ctx) {
        let MdOperand::Node(m) = op else {
            return None;
        };
        let is_member = matches!(
            m.kind(),
            llvm_sys::debuginfo::LLVMMetadataKind::LLVMDIDerivedTypeMetadataKind
        ) && m.tag() == DW_TAG_MEMBER;
        if !is_member {
            continue;
        }
        if m.is_bit_field() {
            return None;
        }
        let name = m.type_name();
        if name.is_empty() {
            return None;
        }
        let bits = m.type_offset_bits();
        if !bits.is_multiple_of(8) {
            return None;
        }
        out.push(Member {
            offset: bits / 8,
            name,
            sign: signs.of_type(m).unwrap_or_default(),
        });
    }
    Some(out)
}

/// The members of an `elements: !N` tuple: byte offset, name and signedness of each
/// `DW_TAG_member`; `None` when one is a bit-field or unnamed (the LLVM fields then cannot be
/// matched by offset).
#[cfg(test)]
fn members(nodes: &HashMap<&str, &str>, elements: &str) -> Option<Vec<Member>> {
    let tuple = nodes.get(elements)?.strip_prefix("!{")?.strip_suffix('}')?;
    let mut out = Vec::new();
    for m in tuple.split(", ").filter(|m| !m.is_empty()) {
        let body = nodes.get(m)?;
        if !body.contains("tag: DW_TAG_member") {
            continue;
        }
        if body.contains("DIFlagBitField") {
            return None;
        }
        let name = field(body, "name")?.trim_matches('"').to_string();
        let bits: u64 = field(body, "offset").map_or(Some(0), |o| o.parse().ok())?;
        if !bits.is_multiple_of(8) {
            return None;
        }
        out.push(Member {
            offset: bits / 8,
            name,
            sign: text_sign(nodes, m, 0).unwrap_or_default(),
        });
    }
    Some(out)
}

/// The signedness of the type node `id` in a module's text (as `TypeSigns` finds it): through
/// members, typedefs, qualifiers, arrays and enums to a basic type's encoding.
#[cfg(test)]
fn text_sign(nodes: &HashMap<&str, &str>, id: &str, depth: u32) -> Option<Signedness> {
    let body = nodes.get(id)?;
    if body.starts_with("!DIBasicType(") {
        return super::signedness::encoding_sign(body);
    }
    let follows = [
        "!DIDerivedType(tag: DW_TAG_member,",
        "!DIDerivedType(tag: DW_TAG_typedef,",
        "!DIDerivedType(tag: DW_TAG_const_type,",
        "!DIDerivedType(tag: DW_TAG_volatile_type,",
        "!DIDerivedType(tag: DW_TAG_atomic_type,",
        "!DICompositeType(tag: DW_TAG_array_type,",
        "!DICompositeType(tag: DW_TAG_enumeration_type,",
    ];
    let body = body.strip_prefix("distinct ").unwrap_or(body);
    if depth > 32 || !follows.iter().any(|f| body.starts_with(f)) {
        return None;
    }
    text_sign(nodes, field(body, "baseType")?, depth + 1)
}

#[cfg(test)]
/// The value of `key: value` in a metadata node's text (up to the next `, ` or `)`).
fn field<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("{key}: ");
    let mut from = 0;
    loop {
        let i = from + body[from..].find(&pat)?;
        // A whole key: preceded by `(` or a space (`baseType` is not `Type`).
        if i == 0 || matches!(body.as_bytes()[i - 1], b'(' | b' ') {
            let rest = &body[i + pat.len()..];
            if let Some(quoted) = rest.strip_prefix('"') {
                let end = quoted.find('"')? + 2;
                return Some(&rest[..end]);
            }
            let end = rest.find([',', ')']).unwrap_or(rest.len());
            return Some(&rest[..end]);
        }
        from = i + pat.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"
!10 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "device", file: !3, line: 15, size: 96, elements: !11)
!11 = !{!12, !13, !14}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "open", scope: !10, file: !3, line: 16, baseType: !6, size: 32)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "mode", scope: !10, file: !3, line: 17, baseType: !6, size: 32, offset: 32)
!14 = !DIDerivedType(tag: DW_TAG_member, name: "count", scope: !10, file: !3, line: 18, baseType: !7, size: 32, offset: 64)
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !DIDerivedType(tag: DW_TAG_typedef, name: "u32", file: !3, line: 2, baseType: !8)
!8 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !9)
!9 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!20 = distinct !DICompositeType(tag: DW_TAG_structure_type, file: !3, line: 20, size: 64, elements: !21)
!21 = !{!22, !23}
!22 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !20, file: !3, line: 21, baseType: !6, size: 32)
!23 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !20, file: !3, line: 22, baseType: !6, size: 32, offset: 32)
!24 = !DIDerivedType(tag: DW_TAG_typedef, name: "pair_t", file: !3, line: 23, baseType: !20)
!30 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "bits", file: !3, line: 30, size: 32, elements: !31)
!31 = !{!32, !33}
!32 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !30, file: !3, line: 31, baseType: !6, size: 3, flags: DIFlagBitField, extraData: i64 0)
!33 = !DIDerivedType(tag: DW_TAG_member, name: "y", scope: !30, file: !3, line: 32, baseType: !6, size: 5, offset: 3, flags: DIFlagBitField, extraData: i64 0)
"#;

    /// The names of `fields`' answer.
    fn names(fields: Option<Vec<Field>>) -> Option<Vec<String>> {
        fields.map(|f| f.into_iter().map(|f| f.name).collect())
    }

    #[test]
    fn named_struct_fields_by_offset() {
        let f = FieldNames::from_module_text(TEXT);
        assert_eq!(
            names(f.fields("struct.device", &[0, 4, 8])),
            Some(vec!["open".into(), "mode".into(), "count".into()])
        );
        // Another file's `struct device`, renamed by the linker.
        assert_eq!(
            names(f.fields("struct.device.0", &[4])),
            Some(vec!["mode".into()])
        );
    }

    #[test]
    fn signedness_through_typedefs_and_qualifiers() {
        let f = FieldNames::from_module_text(TEXT);
        let signs: Vec<Signedness> = (f.fields("struct.device", &[0, 4, 8]).expect("matched"))
            .into_iter()
            .map(|f| f.sign)
            .collect();
        use Signedness::*;
        assert_eq!(signs, [Signed, Signed, Unsigned]);
    }

    #[test]
    fn typedef_of_anonymous_struct() {
        let f = FieldNames::from_module_text(TEXT);
        assert_eq!(
            names(f.fields("struct.pair_t", &[0, 4])),
            Some(vec!["a".into(), "b".into()])
        );
    }

    #[test]
    fn unmatched_layouts_keep_numbers() {
        let f = FieldNames::from_module_text(TEXT);
        // Bit-fields share a storage unit.
        assert_eq!(f.fields("struct.bits", &[0]), None);
        // A padding field at an offset no member has.
        assert_eq!(f.fields("struct.device", &[0, 2]), None);
        assert_eq!(f.fields("union.u", &[0]), None);
        assert_eq!(f.fields("struct.unknown", &[0]), None);
    }

    #[test]
    fn clashing_definitions_are_dropped() {
        let text = format!(
            "{TEXT}\n!40 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: \"device\", size: 32, elements: !41)\n!41 = !{{!42}}\n!42 = !DIDerivedType(tag: DW_TAG_member, name: \"other\", scope: !40, baseType: !6, size: 32)\n"
        );
        let f = FieldNames::from_module_text(&text);
        assert_eq!(f.fields("struct.device", &[0]), None);
    }
}
