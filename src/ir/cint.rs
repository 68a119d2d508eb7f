//! The C types of integers as far as showing their values goes: the width the IR knows, and the
//! signedness the source declares (from the debug info).
//!
//! Invariant: display only. The analysis and the interpreter work on bit patterns, an interval
//! of an N-bit value in the signed range (`watts_domains::machine`); nothing decides a verdict
//! from a `Signedness`.
//!
//! `CInt` turns a canonical interval or value into the text C would show: `[0, 255]` for an
//! `unsigned char`, two ranges (`[0, 1] or 4294967295`) for an unsigned value whose interval holds
//! negative and non-negative patterns. Two types met under one name join to the signed reading of
//! the wider (`CInt::join`).

use watts_domains::machine::clamp;
use watts_domains::{IntTy, Interval};

/// Whether the source reads an integer as signed or unsigned. `Signed` where the debug info
/// does not say (the IR's own reading).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `int`, `long`, `signed char`, `char` where it is signed, and anything unknown.
    #[default]
    Signed,
    /// `unsigned ...`, `size_t`, `_Bool`, `char` where it is unsigned, an enum whose type is
    /// unsigned.
    Unsigned,
}

/// An integer type as C shows its values: `bits` wide, of this signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CInt {
    /// Width in bits (1 to 128).
    pub bits: u32,
    /// How the source reads it.
    pub sign: Signedness,
}

impl CInt {
    /// `bits` wide, read with `sign`.
    pub fn new(bits: u32, sign: Signedness) -> CInt {
        CInt {
            bits: bits.clamp(1, 128),
            sign,
        }
    }

    /// The type two values of one name are shown in: their type when they agree, else the
    /// signed reading of the wider, which holds every canonical value of both (a narrower
    /// value's bit pattern cannot be read as unsigned once joined with a wider one).
    pub fn join(self, other: CInt) -> CInt {
        if self == other {
            self
        } else {
            CInt::new(self.bits.max(other.bits), Signedness::Signed)
        }
    }

    fn unsigned(self) -> bool {
        // Canonical `i1` values are already {0, 1}.
        self.sign == Signedness::Unsigned || self.bits == 1
    }

    fn mask(self) -> u128 {
        u128::MAX >> (128 - self.bits)
    }

    /// The concrete value whose bit pattern `v` holds (any representative modulo 2^bits), as C
    /// prints it: `-56` for a signed `char`, `200` for an `unsigned char`.
    pub fn show_value(self, v: i128) -> String {
        let bits = (v as u128) & self.mask();
        if self.unsigned() {
            bits.to_string()
        } else {
            let shift = 128 - self.bits;
            (((bits << shift) as i128) >> shift).to_string()
        }
    }

    /// The values of `iv` (an interval of this width in the analysis' canonical signed form)
    /// as ranges of C values, ascending: one, or two for an unsigned type whose interval holds
    /// negative and non-negative patterns (`[-1, 1]` of `unsigned int` is `[0, 1]` and
    /// `[4294967295, 4294967295]`). `None` for an empty interval. Exact: every value of the
    /// type that `iv` allows is in a range, and no other.
    pub fn ranges(self, iv: &Interval) -> Option<Vec<(CValue, CValue)>> {
        // Canonical values lie in the type's range; widening may have pushed bounds to
        // infinity, which stands for the type's end there.
        let iv = clamp(*iv, IntTy::new(self.bits));
        if iv.is_bottom() {
            return None;
        }
        let (lo, hi) = (iv.lo(), iv.hi());
        if !self.unsigned() {
            return Some(vec![(CValue::Signed(lo), CValue::Signed(hi))]);
        }
        let u = |x: i128| CValue::Unsigned((x as u128) & self.mask());
        let whole = IntTy::new(self.bits);
        Some(if lo >= 0 || hi < 0 {
            vec![(u(lo), u(hi))]
        } else if lo == whole.min() && hi == whole.max() {
            vec![(CValue::Unsigned(0), CValue::Unsigned(self.mask()))]
        } else {
            // The non-negative patterns first: they are the small unsigned values.
            vec![(u(0), u(hi)), (u(lo), u(-1))]
        })
    }

    /// `iv` as text: `5`, `[0, 255]`, `[0, 1] or 4294967295` (see [`CInt::ranges`]), `⊥` when
    /// empty.
    pub fn show(self, iv: &Interval) -> String {
        let Some(ranges) = self.ranges(iv) else {
            return "⊥".to_string();
        };
        let parts: Vec<String> = ranges
            .iter()
            .map(|(lo, hi)| {
                if lo == hi {
                    lo.to_string()
                } else {
                    format!("[{lo}, {hi}]")
                }
            })
            .collect();
        parts.join(" or ")
    }

    /// The only value of `iv` for this type, if it has one.
    pub fn single(self, iv: &Interval) -> Option<CValue> {
        match self.ranges(iv)?.as_slice() {
            [(lo, hi)] if lo == hi => Some(*lo),
            _ => None,
        }
    }
}

/// One value of a C integer type: signed or unsigned (up to 2^128 - 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CValue {
    /// A value of a signed type.
    Signed(i128),
    /// A value of an unsigned type.
    Unsigned(u128),
}

impl std::fmt::Display for CValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CValue::Signed(v) => write!(f, "{v}"),
            CValue::Unsigned(v) => write!(f, "{v}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const U: Signedness = Signedness::Unsigned;
    const S: Signedness = Signedness::Signed;

    fn iv(lo: i128, hi: i128) -> Interval {
        Interval::new(lo, hi)
    }

    #[test]
    fn unsigned_values_are_shown_in_their_range() {
        let uchar = CInt::new(8, U);
        assert_eq!(uchar.show(&iv(-128, 127)), "[0, 255]");
        assert_eq!(uchar.show(&iv(-56, -56)), "200");
        assert_eq!(uchar.show(&iv(0, 100)), "[0, 100]");
        assert_eq!(uchar.show(&iv(-128, -1)), "[128, 255]");
        // Widening's infinities stand for the type's ends.
        assert_eq!(uchar.show(&Interval::top()), "[0, 255]");
        assert_eq!(uchar.show(&iv(5, i128::MAX)), "[5, 127]");
        let size_t = CInt::new(64, U);
        assert_eq!(
            size_t.show(&iv(i128::from(i64::MIN), i128::from(i64::MAX))),
            "[0, 18446744073709551615]"
        );
        assert_eq!(CInt::new(128, U).show(&iv(-1, -1)), u128::MAX.to_string());
        assert_eq!(
            CInt::new(128, U).show(&Interval::top()),
            format!("[0, {}]", u128::MAX)
        );
    }

    #[test]
    fn straddling_intervals_are_two_ranges() {
        let uint = CInt::new(32, U);
        assert_eq!(uint.show(&iv(-1, 1)), "[0, 1] or 4294967295");
        assert_eq!(uint.show(&iv(-1, 0)), "0 or 4294967295");
        assert_eq!(
            CInt::new(8, U).show(&iv(-100, 100)),
            "[0, 100] or [156, 255]"
        );
        // Every value the interval allows is shown, and none other.
        let ranges = CInt::new(8, U).ranges(&iv(-3, 2)).expect("not empty");
        let shown: Vec<u128> = (0..=255u128)
            .filter(|v| {
                ranges.iter().any(|(lo, hi)| match (lo, hi) {
                    (CValue::Unsigned(lo), CValue::Unsigned(hi)) => lo <= v && v <= hi,
                    _ => false,
                })
            })
            .collect();
        assert_eq!(shown, vec![0, 1, 2, 253, 254, 255]);
        assert_eq!(uint.single(&iv(-1, 1)), None);
        assert_eq!(uint.single(&iv(-1, -1)), Some(CValue::Unsigned(4294967295)));
    }

    #[test]
    fn signed_values_stay_signed() {
        let schar = CInt::new(8, S);
        assert_eq!(schar.show(&iv(-128, 127)), "[-128, 127]");
        assert_eq!(schar.show(&iv(-56, -56)), "-56");
        assert_eq!(schar.show(&Interval::top()), "[-128, 127]");
        assert_eq!(CInt::new(32, S).show(&iv(-1, 1)), "[-1, 1]");
        assert_eq!(schar.show(&Interval::bottom()), "⊥");
        // Booleans are {0, 1} whichever way they are read.
        assert_eq!(CInt::new(1, S).show(&iv(0, 1)), "[0, 1]");
    }

    #[test]
    fn concrete_values_in_either_signedness() {
        assert_eq!(CInt::new(8, U).show_value(-56), "200");
        assert_eq!(CInt::new(8, U).show_value(200), "200");
        assert_eq!(CInt::new(8, S).show_value(200), "-56");
        assert_eq!(CInt::new(32, U).show_value(-1), "4294967295");
        assert_eq!(CInt::new(32, S).show_value(-1), "-1");
        assert_eq!(CInt::new(64, U).show_value(-1), "18446744073709551615");
        assert_eq!(CInt::new(1, S).show_value(1), "1");
        assert_eq!(CInt::new(128, S).show_value(-1), "-1");
    }

    #[test]
    fn types_of_one_name_join_soundly() {
        let (u8_, u32_) = (CInt::new(8, U), CInt::new(32, U));
        assert_eq!(u8_.join(u8_), u8_);
        assert_eq!(u8_.join(u32_), CInt::new(32, S));
        // A joined interval of both is shown whole in the wider signed reading (today's), never
        // clamped to the narrower type's range, which would hide the `unsigned int`'s 1000.
        assert_eq!(u8_.join(u32_).show(&iv(-1, 1000)), "[-1, 1000]");
        assert_eq!(u8_.show(&iv(-1, 1000)), "[0, 127] or 255");
    }
}
