//! The JSON document inside the page: gzip-compressed and base64-encoded, so that a large
//! program's report stays small (kona's 4.75 MB document is 0.2 MB this way). The page's script
//! decodes it with the browser's `DecompressionStream`; [`decode`] is the same in Rust.
//!
//! Invariant: `decode(&encode(text)) == Some(text)`; the encoded text is plain base64, so it
//! cannot end the `<script>` element that holds it.

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::{Read, Write};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `text` gzip-compressed, in base64.
pub fn encode(text: &str) -> String {
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(text.as_bytes())
        .and_then(|()| gz.finish())
        .map(|bytes| base64(&bytes))
        .expect("compressing into memory does not fail")
}

/// The text [`encode`] encoded, or `None` when `encoded` is not such a text.
pub fn decode(encoded: &str) -> Option<String> {
    let bytes = unbase64(encoded.trim())?;
    let mut text = String::new();
    GzDecoder::new(bytes.as_slice())
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn unbase64(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u32> = (text.bytes().take_while(|&c| c != b'='))
        .map(|c| ALPHABET.iter().position(|&a| a == c).map(|p| p as u32))
        .collect::<Option<_>>()?;
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        if chunk.len() == 1 {
            return None;
        }
        let n = (chunk.iter().enumerate()).fold(0, |n, (k, d)| n | d << (18 - 6 * k));
        out.extend((0..chunk.len() - 1).map(|k| (n >> (16 - 8 * k)) as u8));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_the_standard_one() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"\xff\xfe\x00", "//4A"),
        ] {
            assert_eq!(base64(bytes), text);
            assert_eq!(unbase64(text).as_deref(), Some(bytes));
        }
        assert_eq!(unbase64("Z"), None);
        assert_eq!(unbase64("Zm<v"), None);
    }

    #[test]
    fn a_document_comes_back() {
        let text = "{\"a\": \"</script> é\", \"b\": [1, 2, 3]}".repeat(50);
        let enc = encode(&text);
        assert!(enc.len() < text.len() / 4, "compressed: {}", enc.len());
        assert!(enc.bytes().all(|c| ALPHABET.contains(&c) || c == b'='));
        assert_eq!(decode(&enc).as_deref(), Some(text.as_str()));
        assert_eq!(decode("not gzip"), None);
    }
}
