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
        /// How the source reads it, for an integer (`Signed` when unknown). Display only:
        /// [`Layout::same_shape`] ignores it.
        sign: super::Signedness,
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

    /// A scalar of `size` bytes holding `kind`, of unknown signedness.
    pub fn scalar(size: u32, kind: ScalarKind) -> Layout {
        Layout::Scalar {
            size,
            kind,
            sign: super::Signedness::Signed,
        }
    }

    /// Whether both have the same scalars at the same offsets, under the same field names:
    /// equality but for the display-only signedness.
    pub fn same_shape(&self, other: &Layout) -> bool {
        match (self, other) {
            (
                Layout::Scalar { size, kind, .. },
                Layout::Scalar {
                    size: s2, kind: k2, ..
                },
            ) => size == s2 && kind == k2,
            (
                Layout::Struct {
                    size,
                    fields,
                    names,
                },
                Layout::Struct {
                    size: s2,
                    fields: f2,
                    names: n2,
                },
            ) => {
                size == s2
                    && names == n2
                    && fields.len() == f2.len()
                    && (fields.iter().zip(f2)).all(|((o, l), (o2, l2))| o == o2 && l.same_shape(l2))
            }
            (
                Layout::Array {
                    elem,
                    stride,
                    count,
                },
                Layout::Array {
                    elem: e2,
                    stride: s2,
                    count: c2,
                },
            ) => stride == s2 && count == c2 && elem.same_shape(e2),
            _ => false,
        }
    }

    /// Gives the integer scalars of this layout, through arrays but not into structs (whose
    /// members have their own types), the signedness `sign`: the scalar, or the elements of an
    /// array, that one declaration of this type makes.
    pub fn set_sign(&mut self, sign: super::Signedness) {
        match self {
            Layout::Scalar {
                kind: ScalarKind::Int,
                sign: s,
                ..
            } => *s = sign,
            Layout::Array { elem, .. } => elem.set_sign(sign),
            Layout::Scalar { .. } | Layout::Struct { .. } => {}
        }
    }

    /// The signedness of the integer scalar of `size` bytes at byte `offset`, when one is
    /// exactly there (array elements included); `Signed` otherwise.
    pub fn sign_at(&self, offset: u64, size: u64) -> super::Signedness {
        match self {
            Layout::Scalar {
                size: s,
                kind: ScalarKind::Int,
                sign,
            } if offset == 0 && u64::from(*s) == size => *sign,
            Layout::Struct { fields, .. } => fields
                .iter()
                .rev()
                .find(|(o, _)| *o <= offset)
                .map_or(super::Signedness::Signed, |(o, l)| {
                    l.sign_at(offset - o, size)
                }),
            Layout::Array { elem, stride, .. } if *stride > 0 => {
                elem.sign_at(offset % stride, size)
            }
            _ => super::Signedness::Signed,
        }
    }

    /// The source path of byte `off` inside an object of this layout: `.lock`, `.buf[3]`,
    /// `.rx[*].len` (`[*]` for any element when `any_element`, as for an offset normalized over
    /// arrays), `+12` past the end or between fields. With `whole = Some(n)`, a field of at most
    /// `n` bytes entered at its start is named as a whole (a mutex field, `dev.lock`, not the C
    /// library's first scalar inside it).
    pub fn path(&self, off: u64, whole: Option<u64>, any_element: bool) -> String {
        let inner = |l: &Layout, off: u64| match whole {
            Some(n) if off == 0 && l.size() <= n => String::new(),
            _ => l.path(off, whole, any_element),
        };
        match self {
            Layout::Array { elem, stride, .. } if *stride > 0 => {
                let index = if any_element {
                    "*".to_string()
                } else {
                    (off / stride).to_string()
                };
                format!("[{index}]{}", inner(elem, off % stride))
            }
            Layout::Struct { fields, names, .. } => {
                match fields
                    .iter()
                    .enumerate()
                    .rev()
                    .find(|(_, (o, _))| *o <= off)
                {
                    Some((i, (o, f))) if off - o < f.size().max(1) => {
                        format!(".{}{}", Layout::field_name(names, i), inner(f, off - o))
                    }
                    _ if off == 0 => String::new(),
                    _ => format!("+{off}"),
                }
            }
            _ if off == 0 => String::new(),
            _ => format!("+{off}"),
        }
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
