//! In-source suppressions: `// watts-ignore(assert-may-fail)` on an assertion's line or on the
//! line before hides that finding from the human and GNU output and from the exit status.
//!
//! Invariant: a suppression never changes a verdict: JSON keeps the finding with
//! `"suppressed": true` and SARIF reports it with a `suppressions` entry. A suppression that
//! hides nothing is itself reported (`unused-suppression`).

use crate::ir::{FileId, Program};

/// The marker that starts a suppression inside a comment.
pub const MARKER: &str = "watts-ignore(";

/// The diagnostic code of a suppression that matched no finding.
pub const UNUSED_CODE: &str = "unused-suppression";

/// One `watts-ignore(...)` comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// The file it is in.
    pub file: FileId,
    /// 1-based line.
    pub line: u32,
    /// 1-based column of `watts-ignore`.
    pub column: u32,
    /// The codes it names (`assert-may-fail`; `*` for every code).
    pub codes: Vec<String>,
    /// The comment text from the marker to the closing parenthesis.
    pub text: String,
    /// Whether it hid at least one finding.
    pub used: bool,
}

impl Suppression {
    /// Whether it applies to a finding with `code` at `line` of `file`.
    pub fn covers(&self, file: FileId, line: u32, code: &str) -> bool {
        self.file == file
            && (self.line == line || self.line + 1 == line)
            && self.codes.iter().any(|c| c == code || c == "*")
    }
}

/// Every suppression comment in the source files of `program` that have text.
pub fn scan(program: &Program) -> Vec<Suppression> {
    let mut out = Vec::new();
    for (fi, f) in program.files.iter().enumerate() {
        let Some(text) = &f.text else { continue };
        if !text.contains(MARKER) {
            continue;
        }
        for (li, line) in text.lines().enumerate() {
            let mut from = 0;
            while let Some(at) = line[from..].find(MARKER).map(|i| i + from) {
                from = at + MARKER.len();
                // Only inside a comment: `//` or `/*` before it on the line.
                let before = &line[..at];
                if !(before.contains("//") || before.contains("/*")) {
                    continue;
                }
                let rest = &line[from..];
                let Some(close) = rest.find(')') else {
                    continue;
                };
                let codes: Vec<String> = rest[..close]
                    .split(',')
                    .map(|c| c.trim().to_string())
                    .filter(|c| !c.is_empty())
                    .collect();
                if codes.is_empty() {
                    continue;
                }
                out.push(Suppression {
                    file: FileId(fi as u32),
                    line: li as u32 + 1,
                    column: line[..at].chars().count() as u32 + 1,
                    codes,
                    text: line[at..from + close + 1].to_string(),
                    used: false,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::SourceFile;

    #[test]
    fn finds_comments_only() {
        let text = "int x; // watts-ignore(assert-may-fail)\n\
                    char *s = \"watts-ignore(assert-may-fail)\";\n\
                    /* watts-ignore(assert-may-fail, assert-violated) reviewed */\n\
                    // watts-ignore()\n";
        let program = Program {
            files: vec![SourceFile {
                path: "a.c".to_string(),
                text: Some(text.to_string()),
            }],
            ..Program::default()
        };
        let s = scan(&program);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].line, s[0].column), (1, 11));
        assert_eq!(s[1].codes, vec!["assert-may-fail", "assert-violated"]);
        assert!(s[1].covers(FileId(0), 4, "assert-violated"));
        assert!(!s[1].covers(FileId(0), 5, "assert-violated"));
        assert!(!s[0].covers(FileId(0), 2, "assert-proved"));
    }
}
