//! Byte ranges in source text for labels: debug info gives a line and a column, a snippet wants
//! the whole `assert(...)` call.
//!
//! Invariant: never panics, whatever the span says (past the end of the file, column 0, in the
//! middle of a multi-byte character); the ranges returned are inside the text, on char
//! boundaries.
//!
//! Columns are 1-based and counted in characters, the same in the human, GNU, JSON and SARIF
//! formats (SARIF says `columnKind: unicodeCodePoints`); a region ends at the end of the assertion
//! call (`end_line`/`end_column` in JSON, `endLine`/`endColumn` in SARIF, exclusive). A column LLVM
//! did not record (it drops columns past 65535) is recovered from the source line.

use std::ops::Range;

/// Calls whose whole extent is worth underlining when the column is not on one of them.
const ASSERT_NAMES: [&str; 5] = [
    "__VERIFIER_assert",
    "__VERIFIER_error",
    "reach_error",
    "assert",
    "__assert_fail",
];

use crate::limits::MAX_CALL_BYTES;

/// The byte range of the call expression at `line`:`col` (1-based; col 0 is unknown):
/// from the callee's name through the matching `)`, across lines if needed. When the column
/// is not on a call, an assertion call on that line is used; failing that, the rest of the line.
/// `None` only when the text has no such line.
pub fn call_range(text: &str, line: u32, col: u32) -> Option<Range<usize>> {
    call_range_on(text, line_bounds(text, line)?, col)
}

/// [`call_range`], with the lines of `text` found through `index` (built from `text`).
pub fn call_range_indexed(
    text: &str,
    index: &LineIndex,
    line: u32,
    col: u32,
) -> Option<Range<usize>> {
    call_range_on(text, index.bounds(text, line)?, col)
}

/// [`call_range`] on the line with the byte bounds `(line_start, line_end)`.
fn call_range_on(
    text: &str,
    (line_start, line_end): (usize, usize),
    col: u32,
) -> Option<Range<usize>> {
    let line_text = &text[line_start..line_end];
    let indent = line_text.len() - line_text.trim_start().len();
    let start = if col == 0 {
        line_start + indent
    } else {
        let mut at = line_start.saturating_add(col as usize - 1).min(line_end);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    if let Some(r) = call_at(text, start) {
        return Some(r);
    }
    if let Some(r) = assertion_on_line(text, line_start, line_end, start) {
        return Some(r);
    }
    let rest = text[start..line_end].trim_end();
    if !rest.is_empty() {
        return Some(start..start + rest.len());
    }
    let whole = line_text.trim();
    Some(line_start + indent..line_start + indent + whole.len())
}

/// The byte bounds of 1-based `line`, without its line terminator.
fn line_bounds(text: &str, line: u32) -> Option<(usize, usize)> {
    let index = (line as usize).checked_sub(1)?;
    let mut start = 0;
    for _ in 0..index {
        start += text[start..].find('\n')? + 1;
    }
    Some(bounds_from(text, start))
}

/// The byte bounds of the line that starts at `start`, without its line terminator.
fn bounds_from(text: &str, start: usize) -> (usize, usize) {
    let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    let end = if text[start..end].ends_with('\r') {
        end - 1
    } else {
        end
    };
    (start, end)
}

/// Where each line of a text starts, so that finding a line costs no walk from the start of
/// the file (a report of many assertions in a long file would be quadratic otherwise).
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    /// The byte offset of each line's start: 0, then the byte after every `\n`.
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`.
    pub fn new(text: &str) -> Self {
        let newlines = text.bytes().enumerate().filter(|&(_, b)| b == b'\n');
        let starts = std::iter::once(0)
            .chain(newlines.map(|(i, _)| i + 1))
            .collect();
        LineIndex { starts }
    }

    /// The byte offset where 1-based `line` starts (`None` past the last line).
    pub fn start(&self, line: u32) -> Option<usize> {
        self.starts.get((line as usize).checked_sub(1)?).copied()
    }

    /// The byte bounds of 1-based `line` of `text` (the text this index was built from),
    /// without its line terminator, as [`line_bounds`] finds them.
    fn bounds(&self, text: &str, line: u32) -> Option<(usize, usize)> {
        Some(bounds_from(text, self.start(line)?))
    }
}

/// `name ( ... )` starting exactly at `start` (the name may be empty: a bare parenthesis).
fn call_at(text: &str, start: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut i = start;
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'(') {
        return None;
    }
    let close = matching_paren(bytes, i)?;
    Some(start..close + 1)
}

/// The index of the `)` that closes the `(` at `open`, skipping string and character literals
/// and comments.
fn matching_paren(bytes: &[u8], open: usize) -> Option<usize> {
    let limit = bytes.len().min(open.saturating_add(MAX_CALL_BYTES));
    let mut depth = 0usize;
    let mut i = open;
    while i < limit {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < limit && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < limit && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < limit && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// An assertion call on the line: the one that contains `at`, else the first one.
fn assertion_on_line(
    text: &str,
    line_start: usize,
    line_end: usize,
    at: usize,
) -> Option<Range<usize>> {
    let line = &text[line_start..line_end];
    let bytes = text.as_bytes();
    let mut calls = Vec::new();
    for name in ASSERT_NAMES {
        for (off, _) in line.match_indices(name) {
            let s = line_start + off;
            let word_start = s == 0 || !is_ident_byte(bytes[s - 1]);
            let word_end = !bytes.get(s + name.len()).is_some_and(|&b| is_ident_byte(b));
            if word_start && word_end {
                calls.extend(call_at(text, s));
            }
        }
    }
    calls.sort_by_key(|r| r.start);
    calls
        .iter()
        .rev()
        .find(|r| r.contains(&at))
        .or(calls.first())
        .cloned()
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Where a finding is, as every format shows it: 1-based line and column, columns counted in
/// characters (Unicode code points, as the human format and SARIF's `unicodeCodePoints` count
/// them), and the end, exclusive (the character after the last one), as SARIF's `endColumn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters (0: unknown).
    pub column: u32,
    /// The line of the region's end (0: unknown, when the source text is not there).
    pub end_line: u32,
    /// The column after the region's last character (0: unknown).
    pub end_column: u32,
}

/// The region of the span at `line`:`col` (byte column, 1-based, from debug info; 0 is
/// unknown, as LLVM records any column past 65535): it starts at the column when known, else
/// at the [`call_range`] on the line, and ends with the call that starts there (an assertion:
/// through its `)`), else at the end of the line. `None` when the text has no such line.
/// The lines of `text` are found through `lines` (built from `text`).
pub fn region(text: &str, lines: &LineIndex, line: u32, col: u32) -> Option<Region> {
    region_on(text, lines.bounds(text, line)?, line, col)
}

/// [`region`] on `line`, whose byte bounds are `(line_start, line_end)`.
fn region_on(text: &str, bounds: (usize, usize), line: u32, col: u32) -> Option<Region> {
    let (line_start, line_end) = bounds;
    let call = call_range_on(text, bounds, col)?;
    let start = if col == 0 {
        call.start
    } else {
        let mut at = line_start.saturating_add(col as usize - 1).min(line_end);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let end = if call.start == start {
        call.end
    } else {
        start + text[start..line_end].trim_end().len()
    };
    let chars = |from: usize, to: usize| text[from..to].chars().count() as u32;
    let column = chars(line_start, start) + 1;
    let (end_line, end_column) = if end <= start {
        (line, column + 1)
    } else {
        let newlines = text[start..end].matches('\n').count() as u32;
        let end_line_start = text[..end].rfind('\n').map_or(0, |n| n + 1).max(line_start);
        (line + newlines, chars(end_line_start, end) + 1)
    };
    Some(Region {
        line,
        column,
        end_line,
        end_column,
    })
}

impl Region {
    /// The column, when known.
    pub fn column(&self) -> Option<u32> {
        Some(self.column).filter(|&c| c > 0)
    }

    /// The end (line, exclusive column), when known.
    pub fn end(&self) -> Option<(u32, u32)> {
        Some((self.end_line, self.end_column)).filter(|&(l, c)| l > 0 && c > 0)
    }
}

#[cfg(test)]
mod region_tests {
    use super::*;

    #[test]
    fn columns_are_characters_and_ends_are_exclusive() {
        let text = "int main(void) {\n  x = 1; assert(x == 1);\n}\n";
        let r = region(text, &LineIndex::new(text), 2, 10).expect("region");
        assert_eq!((r.line, r.column, r.end_line, r.end_column), (2, 10, 2, 24));
        // Column unknown (LLVM drops columns past 65535): the assertion on the line.
        assert_eq!(region(text, &LineIndex::new(text), 2, 0), Some(r));
        // A statement that is not a call: to the end of the line.
        let r = region(text, &LineIndex::new(text), 2, 3).expect("region");
        assert_eq!((r.column, r.end_column), (3, 25));
        // Multi-byte characters count once.
        let text = "/* é */ assert(ok(\n  1));\n";
        let r = region(text, &LineIndex::new(text), 1, 10).expect("region");
        assert_eq!((r.line, r.column, r.end_line, r.end_column), (1, 9, 2, 6));
        let far = format!("{}assert(g);\n", " ".repeat(80_000));
        let r = region(&far, &LineIndex::new(&far), 1, 0).expect("region");
        assert_eq!((r.column, r.end_column), (80_001, 80_010));
        assert_eq!(region(text, &LineIndex::new(text), 9, 1), None);
    }

    #[test]
    fn the_line_index_finds_what_the_walk_finds() {
        for text in [
            "",
            "\n",
            "a",
            "int main(void) {\r\n  x = 1; assert(x == 1);\r\n}\r\n",
            "/* é */ assert(ok(\n  1));\n\n  assert(y);",
        ] {
            let index = LineIndex::new(text);
            for line in 0..8 {
                for col in 0..30 {
                    assert_eq!(
                        region(text, &index, line, col),
                        line_bounds(text, line).and_then(|b| region_on(text, b, line, col))
                    );
                    assert_eq!(
                        call_range_indexed(text, &index, line, col),
                        call_range(text, line, col)
                    );
                }
            }
        }
    }
}
