//! Words every layer may need to compose its own messages: counted nouns.
//!
//! Invariant: pure functions of their arguments, no knowledge of any layer.

/// `1 assertion`, `2 assertions`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
