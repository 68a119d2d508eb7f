//! GCC attributes clang rejects, dropped from the source without moving any other token.
//!
//! GCC 11's `__attribute__((malloc(deallocator[, index])))` names the function that frees what
//! an allocator returns, so that gcc can warn about a mismatched `free`; clang knows only the
//! argument-less `malloc` and rejects the call ("'malloc' attribute takes no arguments"), which
//! made whole real programs unreadable. The attribute changes nothing the analysis models (it
//! is a promise for warnings; the allocator's body, or its declaration as unknown code, is
//! what is analysed), so the front end drops it and says so in a note.
//!
//! Where: clang names the place of each rejected attribute, through the macros that spelled it
//! (`rejected_places`). The front end blanks that item in a copy of the file
//! (`blank_malloc_item`) and hands clang the copy in the file's place with a virtual file
//! system overlay (`-ivfsoverlay`), so that file names, lines and columns are those of the
//! unchanged source in every diagnostic, in the debug information and in every report.
//!
//! Invariant: a copy differs from its file only in the bytes of a `malloc(...)` /
//! `__malloc__(...)` item, each overwritten by a space (newlines kept).

use std::path::PathBuf;

/// The places clang rejected a `malloc` attribute with arguments, as (file, line, column) of the
/// spelling of the attribute's name (the last "expanded from macro" of the error when a macro
/// spelled it). `diagnostics` must come from a run with real locations
/// (`-fno-diagnostics-use-presumed-location`: a `#line` must not name the file to rewrite).
pub(crate) fn rejected_places(diagnostics: &str) -> Vec<(PathBuf, usize, usize)> {
    let mut out: Vec<(PathBuf, usize, usize)> = Vec::new();
    let mut current: Option<(PathBuf, usize, usize)> = None;
    for line in diagnostics.lines() {
        if let Some((place, message)) = line.split_once(": error: ") {
            out.extend(current.take());
            let rejected = message.starts_with("'malloc' attribute takes no arguments")
                || message.starts_with("'__malloc__' attribute takes no arguments");
            if rejected {
                current = location(place);
            }
        } else if let Some((place, message)) = line.split_once(": note: ") {
            if current.is_some() && message.starts_with("expanded from macro") {
                current = location(place).or(current);
            }
        } else if line.contains(": warning: ") {
            out.extend(current.take());
        }
    }
    out.extend(current);
    out.dedup();
    out
}

/// `FILE:LINE:COL`.
fn location(place: &str) -> Option<(PathBuf, usize, usize)> {
    let mut parts = place.rsplitn(3, ':');
    let col = parts.next()?.trim().parse().ok()?;
    let line = parts.next()?.trim().parse().ok()?;
    let file = parts.next()?;
    (!file.is_empty()).then(|| (PathBuf::from(file), line, col))
}

/// `text` with the `malloc(...)` attribute item whose name starts at `line`:`col` (1-based, in
/// bytes, as clang counts) blanked out; `None` when no such item starts there.
pub(crate) fn blank_malloc_item(text: &str, line: usize, col: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let mut start = 0;
    for _ in 1..line {
        start += bytes[start..].iter().position(|&b| b == b'\n')? + 1;
    }
    let at = start + col.checked_sub(1)?;
    if at >= bytes.len() || (at > 0 && is_ident(bytes[at - 1])) {
        return None;
    }
    let end = ident_end(bytes, at);
    let word = &bytes[at..end];
    if word != b"malloc" && word != b"__malloc__" {
        return None;
    }
    let open = skip_space(bytes, end);
    if bytes.get(open) != Some(&b'(') {
        return None;
    }
    let close = matching(bytes, open)?;
    let mut out = bytes.to_vec();
    for b in &mut out[at..=close] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
    // Only bytes of an ASCII identifier and of a balanced list outside literals... and any
    // literal inside it; a multi-byte character there would be cut, so such an item stays.
    String::from_utf8(out).ok()
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn ident_end(bytes: &[u8], from: usize) -> usize {
    (from..bytes.len())
        .find(|&j| !is_ident(bytes[j]))
        .unwrap_or(bytes.len())
}

fn skip_space(bytes: &[u8], from: usize) -> usize {
    (from..bytes.len())
        .find(|&j| !bytes[j].is_ascii_whitespace())
        .unwrap_or(bytes.len())
}

/// The position after the string or character literal that starts at `from`.
fn skip_literal(bytes: &[u8], from: usize) -> usize {
    let quote = bytes[from];
    let mut j = from + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

/// The `)` that closes the `(` at `open` (skipping literals), if any.
fn matching(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = open;
    while j < bytes.len() {
        match bytes[j] {
            b'"' | b'\'' => {
                j = skip_literal(bytes, j);
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{blank_malloc_item, rejected_places};
    use std::path::PathBuf;

    #[test]
    fn the_item_becomes_spaces_and_nothing_else_moves() {
        let src = "int x;\n__attribute__((malloc, malloc(my_free, 1))) void *a(int);\n\
                   #define D(f, i) __attribute__ ((__malloc__ (f,\n 1), noinline))\n";
        let out = blank_malloc_item(src, 2, 24).expect("the item on line 2");
        assert_eq!(
            out,
            "int x;\n__attribute__((malloc,                   )) void *a(int);\n\
             #define D(f, i) __attribute__ ((__malloc__ (f,\n 1), noinline))\n"
        );
        let out = blank_malloc_item(&out, 3, 33).expect("the item in the macro");
        assert!(
            out.ends_with("__attribute__ ((              \n   , noinline))\n"),
            "{out}"
        );
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn each_item_of_a_list_goes_alone() {
        // Beside other attributes, and two in one list (clang names each): the other entries,
        // and the plain `malloc`, stay.
        let src = "__attribute__((warn_unused_result, malloc(fclose))) FILE *open_log(void);\n\
                   __attribute__((__malloc__(my_free), malloc(free, 1), malloc)) void *two(int);\n";
        let out = blank_malloc_item(src, 1, 36).expect("after warn_unused_result");
        let out = blank_malloc_item(&out, 2, 16).expect("the first of two");
        let out = blank_malloc_item(&out, 2, 37).expect("the second of two");
        assert_eq!(
            out,
            "__attribute__((warn_unused_result,               )) FILE *open_log(void);\n\
             __attribute__((                   ,                , malloc)) void *two(int);\n"
        );
    }

    #[test]
    fn nothing_is_blanked_where_no_malloc_item_starts() {
        let src = "__attribute__((malloc)) void *a(int);\nvoid *p = mymalloc(3);\n";
        assert_eq!(blank_malloc_item(src, 1, 16), None, "no arguments");
        assert_eq!(blank_malloc_item(src, 2, 13), None, "inside a word");
        assert_eq!(blank_malloc_item(src, 2, 1), None, "another word");
        assert_eq!(blank_malloc_item(src, 9, 1), None, "past the end");
        assert_eq!(blank_malloc_item("malloc(f, 1", 1, 1), None, "unbalanced");
    }

    #[test]
    fn the_place_is_where_the_attribute_is_spelled() {
        let d = "./alloc.h:4:24: error: 'malloc' attribute takes no arguments\n\
                 \x20   4 | __attribute__((malloc(f, 1)))\n\
                 g3.c:3:17: error: '__malloc__' attribute takes no arguments\n\
                 ./alloc.h:3:39: note: expanded from macro 'DEALLOC'\n\
                 g3.c:5:1: error: 'noreturn' attribute takes no arguments\n\
                 g3.c:6:1: warning: 'malloc' attribute takes no arguments\n";
        assert_eq!(
            rejected_places(d),
            vec![
                (PathBuf::from("./alloc.h"), 4, 24),
                (PathBuf::from("./alloc.h"), 3, 39)
            ]
        );
        assert!(rejected_places("").is_empty());
    }
}
