//! Text from the analysed files (file names, names of the program, source lines) printed for a
//! terminal or a line-oriented reader: its control characters are escaped (`\x1b`, `\n`,
//! `\u{202e}`), so that what a file holds neither moves the cursor, retitles the window nor
//! links anywhere, and never starts a new line of the GNU format.
//!
//! Invariant: no byte the human or GNU report writes is a control character (see
//! [`crate::confine::is_hidden`]) but the line feeds and tabs of the layout and the escape
//! sequences of `--color`.

use crate::confine::is_hidden;
use codespan_reporting::term::termcolor::{ColorSpec, WriteColor};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

/// `text` with its control characters and line feeds escaped: one line, as printable as the
/// file's own characters are.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_but(text, false)
}

/// `text` escaped like [`escape`], but with its line feeds kept: for messages of several lines
/// (clang's diagnostics, which quote the source) written to a terminal.
pub fn escape_keeping_lines(text: &str) -> Cow<'_, str> {
    escape_but(text, true)
}

/// `text` escaped, keeping its line feeds when `keep_newlines`.
fn escape_but(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    let shown = |c: char| !is_hidden(c) && (c != '\n' || keep_newlines);
    if text.chars().all(shown) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            _ if shown(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0'..='\x7f' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

/// A writer that escapes control characters in the text written through it, but keeps line
/// feeds and tabs (the layout of the human report) and passes colors to `W`.
pub struct Printable<W>(pub W);

impl<W: Write> Write for Printable<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match std::str::from_utf8(buf) {
            Ok(text) => self.0.write_all(escape_but(text, true).as_bytes())?,
            // Not text (a character split between two writes): the one-byte controls still
            // go escaped.
            Err(_) => {
                for &b in buf {
                    if (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f {
                        write!(self.0, "\\x{b:02x}")?;
                    } else {
                        self.0.write_all(&[b])?;
                    }
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl<W: WriteColor> WriteColor for Printable<W> {
    fn supports_color(&self) -> bool {
        self.0.supports_color()
    }

    fn set_color(&mut self, spec: &ColorSpec) -> io::Result<()> {
        self.0.set_color(spec)
    }

    fn reset(&mut self) -> io::Result<()> {
        self.0.reset()
    }

    fn is_synchronous(&self) -> bool {
        self.0.is_synchronous()
    }

    fn set_hyperlink(
        &mut self,
        link: &codespan_reporting::term::termcolor::HyperlinkSpec,
    ) -> io::Result<()> {
        self.0.set_hyperlink(link)
    }

    fn supports_hyperlinks(&self) -> bool {
        self.0.supports_hyperlinks()
    }
}

/// `path:line:col`, leaving out what is unknown; the path escaped.
pub(super) fn position(path: &str, line: Option<u32>, col: Option<u32>) -> String {
    let path = escape(path);
    match (line, col) {
        (Some(l), Some(c)) => format!("{path}:{l}:{c}"),
        (Some(l), None) => format!("{path}:{l}"),
        _ => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use codespan_reporting::term::termcolor::{Ansi, Color};

    #[test]
    fn controls_are_escaped_and_text_is_kept() {
        assert!(matches!(escape("a.c: x = 1 é ∀"), Cow::Borrowed(_)));
        assert_eq!(escape("a\nb"), "a\\nb");
        assert_eq!(escape("\x1b]0;t\x07\r\x7f"), "\\x1b]0;t\\x07\\r\\x7f");
        assert_eq!(
            escape("\u{85}\u{202e}\u{2066}"),
            "\\u{85}\\u{202e}\\u{2066}"
        );
        assert_eq!(escape("\t"), "\t");
    }

    #[test]
    fn a_printable_writer_keeps_lines_and_colors() {
        let mut out = Printable(Ansi::new(Vec::new()));
        out.set_color(ColorSpec::new().set_fg(Some(Color::Red)))
            .unwrap();
        write!(out, "x\x1b[2K\n\ty\u{9b}").unwrap();
        out.write_all(b"\x1b\xff").unwrap();
        out.reset().unwrap();
        let text = String::from_utf8_lossy(&out.0.into_inner()).into_owned();
        assert_eq!(
            text,
            "\x1b[0m\x1b[31mx\\x1b[2K\n\ty\\u{9b}\\x1b\u{fffd}\x1b[0m"
        );
    }
}
