//! How the interpreter names what a witness shows: memory locations, objects and locks by
//! the path the user wrote (`dev.lock`, `t[2]`), values, and source places.
//!
//! Locks and addresses are named down to the field that holds them (`dev.irq_lock`), not to the C
//! library type's first scalar. A step's text shows values in the C type of what they are: a read,
//! write or update in the signedness of the memory's layout scalar there (`show_at`); an input
//! (`StepKind::Input(InputValue)`) named after the variable that gets it (the `--entry` parameter
//! whose name the harness gives its input, or the variable a `__VERIFIER_nondet_*` result is
//! assigned to) and shown in its type (`my_ioctl: gets the input cmd = 4294967240`); the witness
//! file's `input` keeps the IR's signed reading, which replay forces.

use super::*;

/// How a memory location is named (`Interp::describe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Naming {
    /// The scalar accessed: `dev.count`, `dev.irq_lock.0.__lock`.
    Location,
    /// An address or a whole object: `dev` at its start, else the field starting there.
    Object,
    /// A lock: the field that holds it, `dev.lock` even at the start of `dev`.
    Lock,
}

/// Layout paths by object, offset and naming (`Interp::describe`).
pub(super) type PathCache = std::collections::HashMap<(u32, i64, Naming), String>;

impl<'p> Interp<'p> {
    // ---- Naming -------------------------------------------------------------------------

    /// ` at file:line` of a span, written only when a message is (most steps need none).
    pub(super) fn here(&self, span: Option<Span>) -> Here<'_, 'p> {
        Here(self, span)
    }

    /// `file:line` of a span, for messages.
    pub(super) fn at(&self, span: Option<Span>) -> String {
        match span {
            Some(s) => {
                let path = self
                    .program
                    .files
                    .get(s.file.0 as usize)
                    .map_or("?", |f| f.path.as_str());
                let name = std::path::Path::new(path)
                    .file_name()
                    .map_or(path.into(), |n| n.to_string_lossy());
                format!(" at {name}:{}", s.line)
            }
            None => String::new(),
        }
    }

    /// The name of a memory location as the user wrote it: `x`, `t[2]`, `dev+4`,
    /// `heap@f.c:12#2+8`, `main::buf[1]`.
    pub fn describe_location(&self, s: &State, alloc: u32, off: i64) -> String {
        self.describe(s, alloc, off, Naming::Location)
    }

    /// As [`Interp::describe_location`], but an address at the start of an object names the
    /// object itself (a pointer to a struct), not its first field, and one inside names the
    /// field that starts there (`&dev.irq_lock`), not the first scalar inside it.
    pub fn describe_object(&self, s: &State, alloc: u32, off: i64) -> String {
        self.describe(s, alloc, off, Naming::Object)
    }

    /// The name of the lock at `off` of allocation `alloc`: the field that holds it
    /// (`dev.lock`, `dev.irq_lock`), not the C library type's first scalar
    /// (`dev.irq_lock.0.__lock`) nor the struct it begins.
    pub(super) fn describe_lock(&self, s: &State, alloc: u32, off: i64) -> String {
        self.describe(s, alloc, off, Naming::Lock)
    }

    /// The program's object that allocation `a` is a copy of (none for a user buffer).
    pub(super) fn object_of(&self, a: &Alloc) -> Option<&crate::ir::Object> {
        Some(&self.program.objects[self.object_id(a)? as usize])
    }

    /// The id of the program's object that allocation `a` is a copy of.
    pub(super) fn object_id(&self, a: &Alloc) -> Option<u32> {
        match a.kind {
            AllocKind::Global(g) => Some(self.program.globals[g.index()].obj.0),
            AllocKind::Stack { obj, .. } | AllocKind::Heap(obj) => Some(obj.0),
            AllocKind::Buffer { .. } => None,
        }
    }

    /// The name of the parameter that user buffer `b` is passed as (`buf`).
    pub(super) fn buffer_name(&self, b: u32) -> String {
        let ub = &self.program.user_buffers[b as usize];
        let callee = &self.program.funcs[ub.callee.index()];
        (callee.params.get(ub.arg as usize))
            .and_then(|v| callee.vars[v.index()].name.clone())
            .unwrap_or_else(|| format!("{}#{}", callee.name, ub.arg + 1))
    }

    pub(super) fn describe(&self, s: &State, alloc: u32, off: i64, naming: Naming) -> String {
        let Some(a) = s.mem.get(alloc as usize) else {
            return "?".into();
        };
        let Some(object) = self.object_of(a) else {
            // A user buffer: the bytes of a parameter, `buf[3]`.
            let AllocKind::Buffer { buffer, .. } = a.kind else {
                return "?".into();
            };
            let name = self.buffer_name(buffer);
            return match naming {
                Naming::Location => format!("{name}[{off}]"),
                _ if off == 0 => name,
                _ => format!("{name}{off:+}"),
            };
        };
        let mut name = match a.kind {
            AllocKind::Global(g) => self.program.globals[g.index()].name.clone(),
            _ => object.name.clone(),
        };
        if let AllocKind::Heap(_) = a.kind {
            // The k-th block of one allocation site.
            let k = a.ordinal;
            if k > 0 {
                name += &format!("#{}", k + 1);
            }
        }
        // A whole object (a lock, an address) is named down to the field that holds it, not
        // to its first scalar inside the C library's type (`dev.irq_lock`, not
        // `dev.irq_lock.0.__lock`): the first one entered at its start that is no larger
        // than the largest lock type.
        let sizes = self.program.sync_sizes;
        let extent = [sizes.mutex, sizes.rwlock, Some(4)]
            .into_iter()
            .flatten()
            .max();
        let whole = (naming != Naming::Location).then_some(extent).flatten();
        match &object.layout {
            Some(Layout::Struct { .. }) if naming == Naming::Object && off == 0 => {}
            Some(l)
                if naming == Naming::Lock && off == 0 && whole.is_some_and(|n| l.size() <= n) => {}
            Some(l) if off >= 0 && (off as u64) < l.size() => {
                // The same paths come back at every step that touches them: kept.
                let key = (self.object_id(a).unwrap_or(u32::MAX), off, naming);
                let mut cache = self.paths.lock().unwrap_or_else(|e| e.into_inner());
                let path = cache
                    .entry(key)
                    .or_insert_with(|| layout_path(l, off as u64, whole));
                name += path;
            }
            _ if off != 0 => name += &format!("{off:+}"),
            _ => {}
        }
        name
    }

    /// A value as the witness shows it: decimal integers, `&x+4`, `null`, `?`.
    pub(super) fn show(&self, s: &State, v: Value) -> String {
        match v {
            Value::Int { v, bits: 1 } => v.to_string(),
            Value::Int { v, bits } => sext(v, bits).to_string(),
            Value::Ptr(Ptr::Raw(0)) => "null".into(),
            Value::Ptr(Ptr::Raw(x)) => format!("{x:#x}"),
            Value::Ptr(Ptr::Mem { alloc, off }) => {
                format!("&{}", self.describe_object(s, alloc, off))
            }
            Value::Ptr(Ptr::Func(f)) => format!("&{}", self.program.funcs[f.index()].name),
            Value::Unknown => "?".into(),
        }
    }

    /// A value read from or written to the `size` bytes at `p`, as the witness shows it: an
    /// integer in the C type of the memory there (`200` for an `unsigned char`, signed where
    /// the type is unknown), anything else as [`Interp::show`] does.
    pub(super) fn show_at(&self, s: &State, p: Value, size: u32, v: Value) -> String {
        match v {
            Value::Int { v, bits } => {
                CInt::new(bits, self.sign_at(s, p, size)).show_value(v as i128)
            }
            other => self.show(s, other),
        }
    }

    /// The signedness of the integer of `size` bytes at `p` in its object's C type.
    pub(super) fn sign_at(&self, s: &State, p: Value, size: u32) -> Signedness {
        let Value::Ptr(Ptr::Mem { alloc, off }) = p else {
            return Signedness::Signed;
        };
        let layout = (s.mem.get(alloc as usize))
            .and_then(|a| self.object_of(a))
            .and_then(|o| o.layout.as_ref());
        match (layout, u64::try_from(off)) {
            (Some(l), Ok(off)) if off < l.size() => l.sign_at(off, u64::from(size)),
            _ => Signedness::Signed,
        }
    }

    pub(super) fn loc(&self, s: &State, p: Value) -> String {
        match p {
            Value::Ptr(Ptr::Mem { alloc, off }) => self.describe_location(s, alloc, off),
            other => format!("*{}", self.show(s, other)),
        }
    }
}

/// `[i]` for array elements and `+n` inside structs, from an object's layout.
/// The path to byte `off` of `l` (`.field[3].x`); with `whole = Some(n)`, it stops at the
/// first element or field it enters at its start whose size is at most `n` bytes (the object
/// there, such as a mutex, rather than its first scalar).
pub(super) fn layout_path(l: &Layout, off: u64, whole: Option<u64>) -> String {
    let inner = |l: &Layout, off: u64| match whole {
        Some(n) if off == 0 && l.size() <= n => String::new(),
        _ => layout_path(l, off, whole),
    };
    match l {
        Layout::Array { elem, stride, .. } if *stride > 0 => {
            format!("[{}]{}", off / stride, inner(elem, off % stride))
        }
        // `.name` (`.i` for the i-th field when debug info has no names), as the analysis
        // names its cells (`memory::cells`).
        Layout::Struct { fields, names, .. } => {
            match fields
                .iter()
                .enumerate()
                .rev()
                .find(|(_, (o, _))| *o <= off)
            {
                Some((i, (o, f))) if off - o < f.size().max(1) => {
                    let name = Layout::field_name(names, i);
                    format!(".{name}{}", inner(f, off - o))
                }
                _ if off == 0 => String::new(),
                _ => format!("+{off}"),
            }
        }
        _ if off == 0 => String::new(),
        _ => format!("+{off}"),
    }
}
