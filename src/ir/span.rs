//! Source positions from the debug info.

/// A source file that spans point into.
#[derive(Clone, Debug, Default)]
pub struct SourceFile {
    /// The path as the debug info names it (made absolute when the directory is known).
    pub path: String,
    /// Its text, when it could be read (diagnostics show snippets from it).
    pub text: Option<String>,
}

/// A source file index (`Program::files`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A position in a source file: 1-based line and column, as in the debug info.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub col: u32,
}
