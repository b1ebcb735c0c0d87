//! [`Bits`]: a bit-vector of any width, the value type of every stimulus and expected output.
//!
//! Hashers and address converters have ports far wider than 64 bits (a full warp of 32 addresses,
//! a configuration word of a GF(2) matrix), so vectors cannot be plain integers. `Bits` stores the
//! value as little-endian `u64` words and keeps every bit above `width` zero, so that two values of
//! the same width compare equal exactly when their bits do.

use std::fmt;

/// A bit-vector value of any width (up to thousands of bits), stored as little-endian `u64` words.
///
/// Bit 0 is the least significant bit, as in a Verilog `[W-1:0]` vector. Bits at and above
/// `width` are always zero, so the derived `PartialEq` compares values, not storage.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Bits {
    width: usize,
    words: Vec<u64>,
}

/// A mask of the low `width` bits of a `u64` (`width` <= 64).
fn low_mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

impl Bits {
    /// An all-zero value `width` bits wide (a width of zero is allowed and holds nothing).
    pub fn zero(width: usize) -> Bits {
        Bits {
            width,
            words: vec![0; width.div_ceil(64)],
        }
    }

    /// `value` as a `width`-bit vector, zero-extended when `width` > 64.
    ///
    /// # Panics
    /// If `value` does not fit in `width` bits (only possible when `width` < 64): silently
    /// truncating a golden value would hide a bug in the caller's model.
    pub fn from_u64(value: u64, width: usize) -> Bits {
        assert!(
            width >= 64 || value & !low_mask(width) == 0,
            "Bits::from_u64: value {value:#x} does not fit in {width} bits"
        );
        let mut bits = Bits::zero(width);
        if let Some(w) = bits.words.first_mut() {
            *w = value;
        }
        bits
    }

    /// The number of bits in this value.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Bit `i` (0 = least significant).
    ///
    /// # Panics
    /// If `i >= width`.
    pub fn bit(&self, i: usize) -> bool {
        assert!(
            i < self.width,
            "Bits::bit: bit {i} out of range for width {}",
            self.width
        );
        (self.words[i / 64] >> (i % 64)) & 1 == 1
    }

    /// Set bit `i` (0 = least significant) to `v`.
    ///
    /// # Panics
    /// If `i >= width`.
    pub fn set_bit(&mut self, i: usize, v: bool) {
        assert!(
            i < self.width,
            "Bits::set_bit: bit {i} out of range for width {}",
            self.width
        );
        let mask = 1u64 << (i % 64);
        if v {
            self.words[i / 64] |= mask;
        } else {
            self.words[i / 64] &= !mask;
        }
    }

    /// Write the `width`-bit field whose least significant bit is `lsb` with `value`
    /// (`width` <= 64), the usual way to pack one port or one configuration field.
    ///
    /// # Panics
    /// If `width` > 64, if the field does not lie inside the vector, or if `value` does not fit in
    /// `width` bits.
    pub fn set_field(&mut self, lsb: usize, width: usize, value: u64) {
        assert!(
            width <= 64,
            "Bits::set_field: field width {width} exceeds 64"
        );
        assert!(
            lsb + width <= self.width,
            "Bits::set_field: field [{}:{lsb}] out of range for width {}",
            (lsb + width).saturating_sub(1),
            self.width
        );
        assert!(
            value & !low_mask(width) == 0,
            "Bits::set_field: value {value:#x} does not fit in {width} bits"
        );
        if width == 0 {
            return;
        }
        let word = lsb / 64;
        let shift = lsb % 64;
        let mask = low_mask(width);
        self.words[word] = (self.words[word] & !(mask << shift)) | (value << shift);
        if shift + width > 64 {
            let high_mask = mask >> (64 - shift);
            self.words[word + 1] = (self.words[word + 1] & !high_mask) | (value >> (64 - shift));
        }
    }

    /// Read the `width`-bit field whose least significant bit is `lsb` (`width` <= 64): the
    /// counterpart of [`Bits::set_field`].
    ///
    /// # Panics
    /// If `width` > 64 or the field does not lie inside the vector.
    pub fn field(&self, lsb: usize, width: usize) -> u64 {
        assert!(width <= 64, "Bits::field: field width {width} exceeds 64");
        assert!(
            lsb + width <= self.width,
            "Bits::field: field [{}:{lsb}] out of range for width {}",
            (lsb + width).saturating_sub(1),
            self.width
        );
        if width == 0 {
            return 0;
        }
        let word = lsb / 64;
        let shift = lsb % 64;
        let mut value = self.words[word] >> shift;
        if shift + width > 64 {
            value |= self.words[word + 1] << (64 - shift);
        }
        value & low_mask(width)
    }

    /// The concatenation of `parts`, like Verilog's `{a, b, c}`: `parts[0]` is the most
    /// significant part and the last part ends at bit 0.
    pub fn concat(parts: &[Bits]) -> Bits {
        let width = parts.iter().map(Bits::width).sum();
        let mut out = Bits::zero(width);
        let mut lsb = 0;
        for part in parts.iter().rev() {
            let mut done = 0;
            while done < part.width {
                let n = (part.width - done).min(64);
                out.set_field(lsb + done, n, part.field(done, n));
                done += n;
            }
            lsb += part.width;
        }
        out
    }

    /// The value as `ceil(width / 4)` lowercase hex digits, most significant first, with no
    /// prefix: exactly the line format that Verilog's `$readmemh` reads and `%h` prints.
    pub fn to_hex(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let digits = self.width.div_ceil(4);
        (0..digits)
            .rev()
            .map(|d| {
                let lsb = d * 4;
                let n = (self.width - lsb).min(4);
                DIGITS[self.field(lsb, n) as usize] as char
            })
            .collect()
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'h{}", self.width, self.to_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_u64_and_hex_pad_to_whole_digits() {
        assert_eq!(Bits::from_u64(0x5, 3).to_hex(), "5");
        assert_eq!(Bits::from_u64(0x1f, 5).to_hex(), "1f");
        assert_eq!(Bits::from_u64(0x1, 9).to_hex(), "001");
        assert_eq!(Bits::from_u64(0xdead_beef, 32).to_hex(), "deadbeef");
        assert_eq!(Bits::from_u64(u64::MAX, 64).to_hex(), "ffffffffffffffff");
        assert_eq!(Bits::from_u64(7, 70).to_hex(), "000000000000000007");
        assert_eq!(Bits::zero(0).to_hex(), "");
    }

    #[test]
    #[should_panic(expected = "does not fit")]
    fn from_u64_rejects_values_that_do_not_fit() {
        let _ = Bits::from_u64(8, 3);
    }

    #[test]
    fn bits_read_and_write() {
        let mut b = Bits::zero(130);
        b.set_bit(0, true);
        b.set_bit(64, true);
        b.set_bit(129, true);
        assert!(b.bit(0) && b.bit(64) && b.bit(129));
        assert!(!b.bit(1) && !b.bit(63) && !b.bit(128));
        assert_eq!(
            b.to_hex(),
            "20000000000000001".to_owned() + "0000000000000001"
        );
        b.set_bit(129, false);
        assert!(!b.bit(129));
    }

    #[test]
    fn set_field_straddles_word_boundaries() {
        let mut b = Bits::zero(128);
        b.set_field(60, 8, 0xab);
        assert_eq!(b.field(60, 8), 0xab);
        assert_eq!(b.field(64, 4), 0xa);
        assert_eq!(b.field(60, 4), 0xb);
        b.set_field(1, 64, u64::MAX);
        assert_eq!(b.field(0, 1), 0);
        assert_eq!(b.field(1, 64), u64::MAX);
        assert_eq!(b.field(65, 3), 0b101); // upper bits of 0xab survive
        b.set_field(3, 64, 0);
        assert_eq!(b.field(0, 64), 0b110);
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn set_field_rejects_fields_past_the_top() {
        Bits::zero(10).set_field(8, 4, 0);
    }

    #[test]
    fn concat_puts_the_first_part_on_top() {
        let c = Bits::concat(&[Bits::from_u64(0x5, 3), Bits::from_u64(0x3, 2)]);
        assert_eq!(c.width(), 5);
        assert_eq!(c, Bits::from_u64(0b10111, 5));
        assert_eq!(c.to_hex(), "17");

        // 3 + 64 + 5 bits: parts straddle words and are not multiples of four.
        let c = Bits::concat(&[
            Bits::from_u64(0b111, 3),
            Bits::from_u64(0x0123_4567_89ab_cdef, 64),
            Bits::from_u64(0b10001, 5),
        ]);
        assert_eq!(c.width(), 72);
        assert_eq!(c.field(0, 5), 0b10001);
        assert_eq!(c.field(5, 64), 0x0123_4567_89ab_cdef);
        assert_eq!(c.field(69, 3), 0b111);
        assert_eq!(c.to_hex(), "e02468acf13579bdf1");
    }

    #[test]
    fn wide_values_round_trip_through_fields() {
        // A 1024-bit value made of 16 distinct words, then split again.
        let words: Vec<u64> = (0..16u64)
            .map(|i| (0x1111_1111_1111_1111 * (i % 15 + 1)) ^ i)
            .collect();
        let parts: Vec<Bits> = words.iter().rev().map(|&w| Bits::from_u64(w, 64)).collect();
        let wide = Bits::concat(&parts);
        assert_eq!(wide.width(), 1024);
        assert_eq!(wide.to_hex().len(), 256);
        for (i, &w) in words.iter().enumerate() {
            assert_eq!(wide.field(64 * i, 64), w);
        }
        let expected_hex: String = words.iter().rev().map(|w| format!("{w:016x}")).collect();
        assert_eq!(wide.to_hex(), expected_hex);

        let mut rebuilt = Bits::zero(1024);
        for (i, &w) in words.iter().enumerate() {
            rebuilt.set_field(64 * i, 64, w);
        }
        assert_eq!(rebuilt, wide);
    }

    #[test]
    fn odd_widths_hex() {
        // 1021 bits: top digit holds one bit.
        let mut b = Bits::zero(1021);
        b.set_bit(1020, true);
        let hex = b.to_hex();
        assert_eq!(hex.len(), 256);
        assert!(hex.starts_with("10"));
        assert_eq!(format!("{b:?}"), format!("1021'h{hex}"));
    }
}
