//! The shape of a banked scratchpad: `2^n` words spread over `2^m` banks.

use crate::Error;

/// Largest word-address width the models and generators support.
pub const MAX_ADDR_BITS: u32 = 64;
/// Largest bank count supported (`2^16`).
pub const MAX_BANKS: u64 = 1 << 16;

/// A validated memory shape: `addr_bits` (`n`, 1..=64) word-address bits and `2^bank_bits`
/// banks (`m`, 1..=16, `m <= n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    addr_bits: u32,
    bank_bits: u32,
}

impl Geometry {
    /// Validates `addr_bits` and a bank count, which must be a power of two from 2 to 65536 with
    /// `log2(banks) <= addr_bits`.
    pub fn new(addr_bits: u32, banks: u64) -> Result<Self, Error> {
        if !(1..=MAX_ADDR_BITS).contains(&addr_bits) {
            return Err(Error::OutOfRange {
                name: "addr_bits".into(),
                value: addr_bits.to_string(),
                allowed: format!("1 to {MAX_ADDR_BITS}"),
            });
        }
        if !(2..=MAX_BANKS).contains(&banks) || !banks.is_power_of_two() {
            return Err(Error::OutOfRange {
                name: "banks".into(),
                value: banks.to_string(),
                allowed: format!("a power of two from 2 to {MAX_BANKS}"),
            });
        }
        let bank_bits = banks.trailing_zeros();
        if bank_bits > addr_bits {
            return Err(Error::OutOfRange {
                name: "banks".into(),
                value: banks.to_string(),
                allowed: format!(
                    "at most 2^addr_bits = {} banks for {addr_bits} address bits",
                    1u128 << addr_bits
                ),
            });
        }
        Ok(Self {
            addr_bits,
            bank_bits,
        })
    }

    /// Word-address bits `n`.
    pub fn addr_bits(self) -> u32 {
        self.addr_bits
    }

    /// Bank-index bits `m`.
    pub fn bank_bits(self) -> u32 {
        self.bank_bits
    }

    /// Number of banks, `2^m`.
    pub fn banks(self) -> u64 {
        1 << self.bank_bits
    }

    /// Mask of the `n` address bits.
    pub fn addr_mask(self) -> u64 {
        low_mask(self.addr_bits)
    }

    /// Mask of the `m` bank bits.
    pub fn bank_mask(self) -> u64 {
        low_mask(self.bank_bits)
    }
}

/// A mask of the `bits` least significant bits (`bits` up to 64).
pub fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_documented_extremes() {
        assert_eq!(Geometry::new(14, 32).unwrap().bank_bits(), 5);
        assert_eq!(Geometry::new(1, 2).unwrap().bank_bits(), 1);
        assert_eq!(Geometry::new(64, 65536).unwrap().bank_mask(), 0xffff);
        assert_eq!(Geometry::new(64, 2).unwrap().addr_mask(), u64::MAX);
        assert_eq!(Geometry::new(5, 32).unwrap().banks(), 32);
    }

    #[test]
    fn refuses_bad_shapes_naming_the_value() {
        let err = Geometry::new(14, 24).unwrap_err().to_string();
        assert!(
            err.contains("banks = 24") && err.contains("power of two"),
            "{err}"
        );
        let err = Geometry::new(4, 32).unwrap_err().to_string();
        assert!(
            err.contains("banks = 32") && err.contains("at most 2^addr_bits = 16"),
            "{err}"
        );
        assert!(Geometry::new(0, 2).is_err());
        assert!(Geometry::new(65, 2).is_err());
        assert!(Geometry::new(20, 1).is_err());
        assert!(Geometry::new(20, 1 << 17).is_err());
    }
}
