//! C syntax highlighting for the page: each source line as escaped HTML with short tags for
//! keywords (`b`), types (`u`), string and character literals (`s`), numbers (`em`), comments
//! (`i`) and preprocessor lines (`span.pp`), restyled by `page.css`. Short tags because a large
//! file has tens of thousands of tokens (kona: 29,000; `<span class="kw">` cost 0.5 MB more).
//!
//! Invariant: the text of the output (tags removed, entities decoded) is the input line.

/// C keywords (C11 and the common GNU ones).
const KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "const",
    "continue",
    "default",
    "do",
    "else",
    "enum",
    "extern",
    "for",
    "goto",
    "if",
    "inline",
    "register",
    "restrict",
    "return",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "volatile",
    "while",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Generic",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "__thread",
    "__attribute__",
    "asm",
    "__asm__",
];

/// Type names.
const TYPES: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "_Bool",
    "bool",
    "size_t",
    "pthread_t",
    "pthread_mutex_t",
    "pthread_cond_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
];

/// Escapes `&`, `<`, `>` and `"` for HTML text and attribute values.
pub fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

/// Escapes `&`, `<` and `>`: enough for text (not attribute values), and shorter on C strings.
fn escape_text(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
}

/// [`escape`] into a new string.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape(text, &mut out);
    out
}

/// The lines of `text`, highlighted. A block comment may span lines (its state is carried).
pub fn lines(text: &str) -> Vec<String> {
    let mut in_comment = false;
    text.lines().map(|l| line(l, &mut in_comment)).collect()
}

/// A kind of token and its tags.
#[derive(Clone, Copy)]
enum Token {
    Keyword,
    Type,
    Literal,
    Number,
    Comment,
    Preprocessor,
}

fn span(token: Token, text: &str, out: &mut String) {
    let (open, close) = match token {
        Token::Keyword => ("<b>", "</b>"),
        Token::Type => ("<u>", "</u>"),
        Token::Literal => ("<s>", "</s>"),
        Token::Number => ("<em>", "</em>"),
        Token::Comment => ("<i>", "</i>"),
        Token::Preprocessor => ("<span class=\"pp\">", "</span>"),
    };
    out.push_str(open);
    escape_text(text, out);
    out.push_str(close);
}

fn line(l: &str, in_comment: &mut bool) -> String {
    let mut out = String::with_capacity(l.len() + 16);
    let b = l.as_bytes();
    let mut i = 0;
    if !*in_comment && l.trim_start().starts_with('#') {
        span(Token::Preprocessor, l, &mut out);
        return out;
    }
    while i < b.len() {
        if *in_comment {
            let end = l[i..].find("*/").map_or(b.len(), |e| i + e + 2);
            span(Token::Comment, &l[i..end], &mut out);
            *in_comment = end == b.len() && !l[i..].contains("*/");
            i = end;
            continue;
        }
        let c = b[i];
        if l[i..].starts_with("//") {
            span(Token::Comment, &l[i..], &mut out);
            break;
        }
        if l[i..].starts_with("/*") {
            *in_comment = true;
            let end = l[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            if end < b.len() || l[i + 2..].contains("*/") {
                *in_comment = false;
            }
            span(Token::Comment, &l[i..end], &mut out);
            i = end;
            continue;
        }
        if c == b'"' || c == b'\'' {
            let mut j = i + 1;
            while j < b.len() && b[j] != c {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            span(Token::Literal, &l[i..end], &mut out);
            i = end;
            continue;
        }
        if c.is_ascii_digit() {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'.' || b[j] == b'_') {
                j += 1;
            }
            span(Token::Number, &l[i..j], &mut out);
            i = j;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let word = &l[i..j];
            if KEYWORDS.contains(&word) {
                span(Token::Keyword, word, &mut out);
            } else if TYPES.contains(&word) {
                span(Token::Type, word, &mut out);
            } else {
                out.push_str(word);
            }
            i = j;
            continue;
        }
        // Any other character (UTF-8 sequences stay whole).
        let ch = l[i..].chars().next().expect("inside the line");
        let mut buf = [0u8; 4];
        escape_text(ch.encode_utf8(&mut buf), &mut out);
        i += ch.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of highlighted HTML.
    fn text(html: &str) -> String {
        let mut out = String::new();
        let mut tag = false;
        for c in html.chars() {
            match c {
                '<' => tag = true,
                '>' => tag = false,
                _ if !tag => out.push(c),
                _ => {}
            }
        }
        out.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
    }

    #[test]
    fn highlighting_keeps_the_text() {
        let src = "#include <x.h>\nint main(void) { /* a\n still */ char *s = \"<b>\\\"\"; // é & co\n  return 'x' + 0x1f; }\n";
        let got = lines(src);
        for (h, l) in got.iter().zip(src.lines()) {
            assert_eq!(text(h), l);
        }
        assert!(got[0].starts_with("<span class=\"pp\">#include &lt;x.h&gt;</span>"));
        assert!(got[1].contains("<u>int</u>"));
        assert!(got[2].starts_with("<i> still */</i>"));
        assert!(got[2].contains("<s>\"&lt;b&gt;\\\"\"</s>"));
        assert!(got[3].contains("<b>return</b>"));
        assert!(got[3].contains("<em>0x1f</em>"));
    }
}
