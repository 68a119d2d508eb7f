//! Reading one file: a small lexer (comments and strings dropped, line numbers kept) and the
//! reader of `mod` declarations, `use` trees and paths in code.

use super::*;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    Str(String),
    /// `::`
    PathSep,
    Punct(char),
}

pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) line: usize,
}

impl Token {
    pub(crate) fn is(&self, c: char) -> bool {
        self.tok == Tok::Punct(c)
    }

    pub(crate) fn ident(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident(s) => Some(s),
            _ => None,
        }
    }
}

/// The tokens of `text` that matter for paths: identifiers, strings, `::` and punctuation;
/// comments, numbers, characters and lifetimes dropped.
pub(crate) fn lex(text: &str) -> Vec<Token> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if ch == '"' {
            let start_line = line;
            let mut s = String::new();
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    s.push(c[i]);
                    i += 1;
                }
                line += usize::from(at(i) == '\n');
                s.push(at(i));
                i += 1;
            }
            i += 1;
            out.push(Token {
                tok: Tok::Str(s),
                line: start_line,
            });
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1; // a lifetime: its name follows as an identifier, harmless
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let raw_string = (word == "r" || word == "br" || word == "cr")
                && (at(i) == '"' || (at(i) == '#' && matches!(at(i + 1), '"' | '#')));
            if raw_string {
                let start_line = line;
                let mut hashes = 0;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1; // the opening quote
                let mut s = String::new();
                while i < c.len() {
                    if c[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    line += usize::from(c[i] == '\n');
                    s.push(c[i]);
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Str(s),
                    line: start_line,
                });
            } else if (word == "b" || word == "c") && at(i) == '"' {
                // A byte or C string: its quote is read next as a string.
            } else if word == "b" && at(i) == '\'' {
                // A byte: its quote is read next as a character.
            } else if word == "r" && at(i) == '#' {
                i += 1; // a raw identifier: `r#type`
            } else {
                out.push(Token {
                    tok: Tok::Ident(word),
                    line,
                });
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(ch),
                line,
            });
            i += 1;
        }
    }
    out
}

/// The words that start an item definition followed by its name.
pub(crate) const DEFINES: &[&str] = &[
    "fn", "struct", "enum", "trait", "type", "const", "static", "union",
];

/// Reads one file of `module`: records its definitions, `use` bindings, inline modules and
/// named paths, and returns its `mod x;` declarations `(module, name, test)`.
pub(crate) fn read_file(
    tree: &mut Tree,
    file: usize,
    module: usize,
    text: &str,
    file_test: bool,
    named: &mut Vec<Named>,
) -> Vec<(usize, String, bool)> {
    let toks = lex(text);
    let mut decls = Vec::new();
    let mut depth = 0usize;
    // (module, depth of its body)
    let mut modules: Vec<(usize, usize)> = vec![(module, 0)];
    // The depth a test item started at.
    let mut test_from: Option<usize> = None;
    let mut pending_test = false;
    let mut attr_end = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let m = modules.last().expect("a module").0;
        let in_test = file_test || test_from.is_some();
        if t.is('#') && toks.get(i + 1).is_some_and(|n| n.is('[')) {
            let end = matching(&toks, i + 1);
            let inner: Vec<&Tok> = toks[i + 2..end].iter().map(|t| &t.tok).collect();
            let cfg_test = [
                Tok::Ident("cfg".into()),
                Tok::Punct('('),
                Tok::Ident("test".into()),
                Tok::Punct(')'),
            ];
            if inner.len() == 4 && inner.iter().zip(&cfg_test).all(|(a, b)| *a == b) {
                pending_test = true;
            }
            attr_end = end;
        } else if pending_test && i > attr_end && test_from.is_none() && !t.is('#') {
            test_from = Some(depth);
            pending_test = false;
            continue; // read this token again, inside the test item
        }
        let in_attr = i <= attr_end && attr_end > 0;
        match &t.tok {
            Tok::Punct('{' | '(' | '[') => depth += 1,
            Tok::Punct('}' | ')' | ']') => {
                depth = depth.saturating_sub(1);
                if t.is('}') {
                    if modules.len() > 1 && depth < modules.last().expect("module").1 {
                        modules.pop();
                    }
                    if test_from == Some(depth) {
                        test_from = None;
                    }
                }
            }
            Tok::Punct(';') if test_from == Some(depth) => test_from = None,
            Tok::Ident(w) if w == "mod" && !in_attr => {
                if let Some(name) = toks.get(i + 1).and_then(Token::ident) {
                    if toks.get(i + 2).is_some_and(|n| n.is(';')) {
                        decls.push((m, name.to_string(), in_test));
                    } else if toks.get(i + 2).is_some_and(|n| n.is('{')) {
                        let dir = format!("{}/{name}", tree.modules[m].child_dir);
                        let krate = tree.modules[m].krate;
                        let inner = tree.add_module(krate, file, Some(m), dir);
                        tree.modules[m].children.insert(name.to_string(), inner);
                        modules.push((inner, depth + 1));
                    }
                }
            }
            Tok::Ident(w) if w == "use" && !in_attr => {
                let reexport = i > 0
                    && (toks[i - 1].ident() == Some("pub") || {
                        toks[i - 1].is(')') && {
                            let open = (0..i - 1).rev().find(|&k| toks[k].is('('));
                            open.is_some_and(|k| k > 0 && toks[k - 1].ident() == Some("pub"))
                        }
                    });
                let mut leaves = Vec::new();
                let end = read_use_tree(&toks, i + 1, Vec::new(), &mut leaves);
                for (path, bound) in leaves {
                    match &bound {
                        Binding::Name(name) => {
                            tree.modules[m].uses.insert(name.clone(), path.clone());
                        }
                        Binding::Glob => tree.modules[m].globs.push(path.clone()),
                        Binding::Hidden => {}
                    }
                    let bound = match bound {
                        Binding::Name(n) => Some(n),
                        Binding::Glob | Binding::Hidden => None,
                    };
                    let how = How::Use { bound, reexport };
                    named.push(Named {
                        file,
                        module: m,
                        line: t.line,
                        path,
                        test: in_test,
                        arg: None,
                        how,
                    });
                }
                i = end;
                continue;
            }
            Tok::Ident(w)
                if DEFINES.contains(&w.as_str()) && depth == modules.last().expect("module").1 =>
            {
                if let Some(name) = toks.get(i + 1).and_then(Token::ident) {
                    if !DEFINES.contains(&name) && name != "mut" {
                        tree.modules[m].defs.insert(name.to_string());
                    }
                }
            }
            Tok::Ident(w) if w == "macro_rules" => {
                if let Some(name) = toks.get(i + 2).and_then(Token::ident) {
                    tree.modules[m].defs.insert(name.to_string());
                }
            }
            Tok::Ident(first) => {
                tree.files[file].code_names.insert(first.clone());
                let starts = i == 0 || toks[i - 1].tok != Tok::PathSep;
                if starts && toks.get(i + 1).is_some_and(|n| n.tok == Tok::PathSep) {
                    let mut path = vec![first.clone()];
                    let mut j = i + 1;
                    while toks.get(j).is_some_and(|n| n.tok == Tok::PathSep) {
                        match toks.get(j + 1).and_then(Token::ident) {
                            Some(seg) => path.push(seg.to_string()),
                            None => break,
                        }
                        j += 2;
                    }
                    let arg = match (toks.get(j), toks.get(j + 1)) {
                        (Some(open), Some(a)) if open.is('(') => match &a.tok {
                            Tok::Str(s) => Some(s.clone()),
                            Tok::Ident(s) => Some(s.clone()),
                            _ => None,
                        },
                        _ => None,
                    };
                    tree.files[file].code_names.extend(path.iter().cloned());
                    if path.len() > 1 {
                        named.push(Named {
                            file,
                            module: m,
                            line: t.line,
                            path,
                            test: in_test,
                            arg,
                            how: How::Code,
                        });
                    }
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    decls
}

/// The index of the delimiter closing the one at `open`.
pub(crate) fn matching(toks: &[Token], open: usize) -> usize {
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len() - 1
}

/// What a leaf of a `use` tree binds.
pub(crate) enum Binding {
    Name(String),
    Glob,
    /// `as _`
    Hidden,
}

/// Reads the `use` tree at `i` under `prefix`, pushing its leaves; returns the index after the
/// tree (after the `;` at the top).
pub(crate) fn read_use_tree(
    toks: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Binding)>,
) -> usize {
    let top = prefix.is_empty();
    if top && toks.get(i).is_some_and(|t| t.tok == Tok::PathSep) {
        prefix.push(String::new());
        i += 1;
    }
    loop {
        let Some(t) = toks.get(i) else { return i };
        match &t.tok {
            Tok::Ident(seg) => {
                prefix.push(seg.clone());
                i += 1;
                if toks.get(i).is_some_and(|n| n.tok == Tok::PathSep) {
                    i += 1;
                    continue;
                }
                let mut bound = None;
                if toks.get(i).and_then(Token::ident) == Some("as") {
                    bound = toks.get(i + 1).and_then(Token::ident).map(str::to_string);
                    i += 2;
                }
                if prefix.last().is_some_and(|s| s == "self") {
                    prefix.pop();
                }
                let name = bound.unwrap_or_else(|| prefix.last().cloned().unwrap_or_default());
                let binding = if name == "_" {
                    Binding::Hidden
                } else {
                    Binding::Name(name)
                };
                out.push((prefix, binding));
                break;
            }
            Tok::Punct('*') => {
                out.push((prefix, Binding::Glob));
                i += 1;
                break;
            }
            Tok::Punct('{') => {
                i += 1;
                while toks.get(i).is_some_and(|t| !t.is('}')) {
                    i = read_use_tree(toks, i, prefix.clone(), out);
                    if toks.get(i).is_some_and(|t| t.is(',')) {
                        i += 1;
                    }
                }
                i += 1;
                break;
            }
            _ => return i + 1,
        }
    }
    if top {
        while toks.get(i).is_some_and(|t| !t.is(';')) {
            i += 1;
        }
        i += 1;
    }
    i
}
