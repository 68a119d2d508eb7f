//! Memory layout of objects and initial contents of globals, in bytes.

/// What a scalar leaf of a layout holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    /// An integer of `size * 8` bits.
    Int,
    /// A pointer.
    Ptr,
    /// A float or anything else the analysis does not track.
    Other,
}

/// The shape of a typed object, with byte offsets from the target's data layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A scalar of `size` bytes.
    Scalar {
        /// Size in bytes.
        size: u32,
        /// What it holds.
        kind: ScalarKind,
    },
    /// A struct (or a union, lowered as its largest member): fields at byte offsets.
    Struct {
        /// Allocation size in bytes.
        size: u64,
        /// (byte offset, layout) of each field, in order.
        fields: Vec<(u64, Layout)>,
        /// The source names of the fields (from debug info), when every field has one;
        /// empty otherwise. Display only.
        names: Vec<String>,
    },
    /// An array of `count` elements, `stride` bytes apart.
    Array {
        /// The element layout.
        elem: Box<Layout>,
        /// Allocation size of one element in bytes.
        stride: u64,
        /// Number of elements (0 for a flexible or unknown length).
        count: u64,
    },
}

impl Layout {
    /// How field `i` of a struct with these `names` is shown: its source name, else its number.
    pub fn field_name(names: &[String], i: usize) -> std::borrow::Cow<'_, str> {
        names
            .get(i)
            .map_or_else(|| i.to_string().into(), |n| n.as_str().into())
    }

    /// Allocation size in bytes.
    pub fn size(&self) -> u64 {
        match self {
            Layout::Scalar { size, .. } => u64::from(*size),
            Layout::Struct { size, .. } => *size,
            Layout::Array { stride, count, .. } => stride.saturating_mul(*count),
        }
    }
}

/// A scalar stored at a byte offset of a global's initial contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitCell {
    /// Byte offset from the start of the global.
    pub offset: u64,
    /// Size in bytes.
    pub size: u32,
    /// The value.
    pub value: InitValue,
}

/// The initial value of one scalar. Bytes of a defined global not covered by any `InitCell`
/// are zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InitValue {
    /// An integer, sign-extended from its width (`i1 true` is 1).
    Int(i128),
    /// The address of a global plus a byte offset.
    GlobalAddr(super::GlobalId, i64),
    /// The address of a function.
    FuncAddr(super::FuncId),
    /// A value the analysis does not track (floats, odd constant expressions).
    Unknown,
}
