//! Debug info: source files and spans, and source names of SSA values and allocas.

use std::collections::HashMap;
use std::path::Path;

use llvm_sys::{LLVMOpcode, LLVMValueKind};

use super::ffi::Val;
use super::signedness::TypeSigns;
use crate::confine::SourceRoots;
use crate::ir::{FileId, Signedness, SourceFile, Span};

/// The source files spans point into, deduplicated by path.
pub(crate) struct Files {
    /// Whose text may be read: debug info names any path (`#line 1 "/proc/self/environ"`).
    roots: SourceRoots,
    by_key: HashMap<(String, String), Option<FileId>>,
    by_path: HashMap<String, FileId>,
    files: Vec<SourceFile>,
    /// Line starts of files whose text was read early (`None`: not read yet).
    line_starts: Vec<Option<Vec<usize>>>,
}

impl Files {
    /// No files yet; their text is read as `roots` allow.
    pub fn new(roots: SourceRoots) -> Self {
        Files {
            roots,
            by_key: HashMap::new(),
            by_path: HashMap::new(),
            files: Vec::new(),
            line_starts: Vec::new(),
        }
    }

    /// The span of an instruction's debug location.
    pub fn span_of_inst(&mut self, inst: Val) -> Option<Span> {
        let line = inst.debug_line();
        if line == 0 {
            return None;
        }
        let file = self.file_of(inst)?;
        Some(Span {
            file,
            line,
            col: inst.debug_col(),
        })
    }

    /// The span of a function's or global's debug info (column unknown).
    pub fn span_of_global(&mut self, g: Val) -> Option<Span> {
        let line = g.debug_line();
        if line == 0 {
            return None;
        }
        let file = self.file_of(g)?;
        Some(Span { file, line, col: 0 })
    }

    /// The file name (last component) of a span, for readable object names.
    pub fn short_name(&self, span: Span) -> String {
        let path = self
            .files
            .get(span.file.0 as usize)
            .map(|f| f.path.as_str())
            .unwrap_or("?");
        Path::new(path)
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.to_string())
    }

    fn file_of(&mut self, v: Val) -> Option<FileId> {
        let key = v.debug_file();
        if let Some(id) = self.by_key.get(&key) {
            return *id;
        }
        let (dir, name) = &key;
        let id = if name.is_empty() {
            None
        } else {
            // A name relative to the directory watts runs in stays as the user typed it.
            let here = std::env::current_dir().ok();
            let in_cwd = here.as_deref().is_some_and(|h| Path::new(dir) == h);
            let path = if Path::new(name).is_absolute() || dir.is_empty() || in_cwd {
                name.clone()
            } else {
                Path::new(dir).join(name).to_string_lossy().into_owned()
            };
            Some(*self.by_path.entry(path.clone()).or_insert_with(|| {
                let id = FileId(self.files.len() as u32);
                self.files.push(SourceFile { path, text: None });
                id
            }))
        };
        self.by_key.insert(key, id);
        id
    }

    /// The file table, with the text of every file that can be read.
    pub fn finish(mut self) -> Vec<SourceFile> {
        for (i, f) in self.files.iter_mut().enumerate() {
            let read = self.line_starts.get(i).is_some_and(|s| s.is_some());
            if !read {
                f.text = self.roots.read(Path::new(&f.path)).ok();
            }
        }
        self.files
    }

    /// Reads a file's text once (used for assertion conditions before `finish`), with the byte
    /// offset of each line start.
    fn load_text(&mut self, file: FileId) -> Option<(&str, &[usize])> {
        let i = file.0 as usize;
        if self.line_starts.len() < self.files.len() {
            self.line_starts.resize(self.files.len(), None);
        }
        if self.line_starts[i].is_none() {
            let f = &mut self.files[i];
            f.text = self.roots.read(Path::new(&f.path)).ok();
            let starts = match &f.text {
                Some(t) => std::iter::once(0)
                    .chain(t.match_indices('\n').map(|(k, _)| k + 1))
                    .collect(),
                None => Vec::new(),
            };
            self.line_starts[i] = Some(starts);
        }
        let text = self.files[i].text.as_deref()?;
        Some((text, self.line_starts[i].as_deref()?))
    }

    /// At most `max` bytes of source text from the start of `span`'s line.
    pub fn text_from(&mut self, span: Span, max: usize) -> Option<String> {
        let (text, starts) = self.load_text(span.file)?;
        let start = *starts.get(span.line.checked_sub(1)? as usize)?;
        let mut end = (start + max).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Some(text[start..end].to_string())
    }
}

/// Source variables found in one function's `llvm.dbg.value` / `llvm.dbg.declare` calls.
#[derive(Default)]
pub(crate) struct Names {
    /// Value (argument or instruction) to its source variable.
    pub values: HashMap<Val, SourceVar>,
    /// Alloca to (variable, the `llvm.dbg.declare` call, whose location is the declaration).
    pub declared: HashMap<Val, (SourceVar, Val)>,
}

/// A source variable: its name and the signedness of its C type (`Signed` when unknown or not
/// an integer).
#[derive(Clone, Debug)]
pub(crate) struct SourceVar {
    pub name: String,
    pub sign: Signedness,
}

/// Whether `inst` is a call to a `llvm.dbg.*` intrinsic.
pub(crate) fn is_dbg_call(inst: Val) -> bool {
    inst.opcode() == LLVMOpcode::LLVMCall && {
        let callee = inst.called_value();
        !callee.is_null()
            && callee.kind() == LLVMValueKind::LLVMFunctionValueKind
            && callee.name().starts_with("llvm.dbg.")
    }
}

/// Collects the source variables of a defined function's values.
pub(crate) fn names(func: Val, signs: &TypeSigns) -> Names {
    let mut out = Names::default();
    for bb in func.blocks() {
        for inst in bb.instructions() {
            if !is_dbg_call(inst) {
                continue;
            }
            let callee = inst.called_value().name();
            let args = inst.call_args();
            let (Some(&loc), Some(&var)) = (args.first(), args.get(1)) else {
                continue;
            };
            let (Some(v), Some(name)) = (loc.local_metadata_value(), var.di_variable_name()) else {
                continue;
            };
            let sign = (var.metadata_node())
                .and_then(|n| signs.of_variable(n))
                .unwrap_or_default();
            let source = SourceVar { name, sign };
            if callee == "llvm.dbg.declare" {
                // The alloca holds the variable's address, not its value.
                if v.is_instruction() && v.opcode() == LLVMOpcode::LLVMAlloca {
                    out.declared.entry(v).or_insert((source, inst));
                }
            } else if callee == "llvm.dbg.value" {
                out.values.entry(v).or_insert(source);
            }
        }
    }
    out
}
