//! The layout of the JSON documents watts writes: serde_json's pretty layout (two spaces, one
//! member per line), except that an array of numbers stays on one line. A race's `access_ids`
//! and `pair_groups` hold up to millions of indices on real programs (kona: 2.5 million); one
//! per line made its report seven times larger.

use serde::Serialize;
use serde_json::ser::Formatter;
use std::io::{self, Write};

/// Writes `value` as pretty JSON with arrays of numbers on one line.
pub(super) fn write<T: Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Layout::default());
    value.serialize(&mut ser).map_err(io::Error::other)
}

#[derive(Default)]
struct Layout {
    /// Nesting depth of arrays and objects.
    depth: usize,
    /// Whether the innermost array or object has a member.
    has_value: bool,
    /// Per open array, whether it has held numbers only so far.
    arrays: Vec<bool>,
    /// An array member is next, not yet separated (whether it is the first).
    pending: Option<bool>,
}

impl Layout {
    /// Separates the value that starts now from what comes before it, when it is an array
    /// member: on the same line when it and every member before it are numbers.
    fn value<W: ?Sized + Write>(&mut self, w: &mut W, number: bool) -> io::Result<()> {
        let Some(first) = self.pending.take() else {
            return Ok(());
        };
        let inline = self
            .arrays
            .last_mut()
            .expect("an array member is in an array");
        if number && *inline {
            if !first {
                w.write_all(b", ")?;
            }
            return Ok(());
        }
        *inline = false;
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }

    fn indent<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
}

macro_rules! numbers {
    ($($name:ident: $ty:ty),*) => {
        $(fn $name<W: ?Sized + Write>(&mut self, w: &mut W, value: $ty) -> io::Result<()> {
            self.value(w, true)?;
            serde_json::ser::CompactFormatter.$name(w, value)
        })*
    };
}

impl Formatter for Layout {
    numbers!(write_i8: i8, write_i16: i16, write_i32: i32, write_i64: i64, write_i128: i128,
        write_u8: u8, write_u16: u16, write_u32: u32, write_u64: u64, write_u128: u128,
        write_f32: f32, write_f64: f64);

    fn write_number_str<W: ?Sized + Write>(&mut self, w: &mut W, value: &str) -> io::Result<()> {
        self.value(w, true)?;
        w.write_all(value.as_bytes())
    }

    fn write_null<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        w.write_all(b"null")
    }

    fn write_bool<W: ?Sized + Write>(&mut self, w: &mut W, value: bool) -> io::Result<()> {
        self.value(w, false)?;
        w.write_all(if value { b"true" } else { b"false" })
    }

    fn begin_string<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        w.write_all(b"\"")
    }

    fn write_raw_fragment<W: ?Sized + Write>(&mut self, w: &mut W, f: &str) -> io::Result<()> {
        self.value(w, false)?;
        w.write_all(f.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        self.depth += 1;
        self.has_value = false;
        self.arrays.push(true);
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        let inline = self.arrays.pop().unwrap_or(false);
        if self.has_value && !inline {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, _w: &mut W, first: bool) -> io::Result<()> {
        self.pending = Some(first);
        Ok(())
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    fn text(v: &Value) -> String {
        let mut out = Vec::new();
        super::write(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_stay_on_one_line_and_the_rest_is_pretty() {
        let v = json!({"a": [1, 2, 3], "b": [{"c": [], "d": "x"}], "e": {}, "f": [[0, 1], [2]]});
        assert_eq!(
            text(&v),
            "{\n  \"a\": [1, 2, 3],\n  \"b\": [\n    {\n      \"c\": [],\n      \"d\": \"x\"\n    }\n  ],\n  \"e\": {},\n  \"f\": [\n    [0, 1],\n    [2]\n  ]\n}"
        );
    }

    #[test]
    fn any_document_reads_back_the_same() {
        let v = json!({"x": [1, "two", null, [3, {"y": [true, 4.5]}]], "z": -7, "w": [{}, []]});
        assert_eq!(serde_json::from_str::<Value>(&text(&v)).unwrap(), v);
    }
}
