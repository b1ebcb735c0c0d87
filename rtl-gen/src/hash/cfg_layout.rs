//! The field layout of a configurable hasher's flat configuration input `cfg_i`.
//!
//! Fields are packed from bit 0 upwards in the order listed here; the manifest documents each
//! by name, lsb and width, and [`CfgLayout::encode`] turns a configuration into the value to
//! drive. Index fields are `max(1, ceil(log2(range)))` bits wide; values beyond the legal range
//! are not part of the contract (the testbenches drive only legal configurations).
//!
//! | kind | fields |
//! |---|---|
//! | bitvector-perm | `k` |
//! | bitvector-xor | `k1`, `k2`, `mask` (m bits) |
//! | bitwise-perm | `bit0` .. `bit{m-1}` (the address bit of each bank bit) |
//! | bitwise-xor | `pair0a`, `pair0b`, .. (the two address bits of each bank bit) |
//! | xor-matrix | `row0` .. `row{m-1}` (n-bit masks) |

use crate::rtl::ir::{bits_for, index_width};
use hdl_util::Bits;
use models::{Geometry, HashConfig, HashKind};
use serde::Serialize;

/// One named field of `cfg_i`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CfgField {
    /// Field name, also the suffix of the wire `cfg_<name>` inside the module.
    pub name: String,
    /// Position of the field's least significant bit in `cfg_i`.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
    /// What the field selects.
    pub description: String,
}

/// The field names, shared by the layout and the builders that look fields up by name.
pub mod field {
    /// The bit-vector permutation's offset.
    pub const K: &str = "k";
    /// The bit-vector XOR's first offset.
    pub const K1: &str = "k1";
    /// The bit-vector XOR's masked offset.
    pub const K2: &str = "k2";
    /// The bit-vector XOR's mask.
    pub const MASK: &str = "mask";

    /// The bitwise permutation's address bit of bank bit `i`.
    pub fn bit(i: u32) -> String {
        format!("bit{i}")
    }

    /// The bitwise XOR's first (`second` false) or second address bit of bank bit `i`.
    pub fn pair(i: u32, second: bool) -> String {
        format!("pair{i}{}", if second { 'b' } else { 'a' })
    }

    /// The xor-matrix's row of bank bit `i`.
    pub fn row(i: u32) -> String {
        format!("row{i}")
    }
}

/// The packing of every field of one kind and shape into `cfg_i`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CfgLayout {
    /// Fields from bit 0 upwards.
    pub fields: Vec<CfgField>,
}

impl CfgLayout {
    /// The layout for `kind` at `geometry`; `None` for `modulo`, which has nothing to configure.
    pub fn for_kind(kind: HashKind, geometry: Geometry) -> Option<Self> {
        let n = geometry.addr_bits();
        let m = geometry.bank_bits();
        let offset_width = bits_for(u64::from(n - m) + 1);
        let bit_width = index_width(n);
        let specs: Vec<(String, u32, String)> = match kind {
            HashKind::Modulo => return None,
            HashKind::BitvectorPerm => vec![(
                field::K.into(),
                offset_width,
                format!("offset of the selected bit-vector, 0 to {}", n - m),
            )],
            HashKind::BitvectorXor => vec![
                (field::K1.into(), offset_width, format!("offset of the first bit-vector, 0 to {}", n - m)),
                (field::K2.into(), bit_width, format!("offset of the masked bit-vector, 0 to {}", n - 1)),
                (field::MASK.into(), m, "bank bits that take the second vector".into()),
            ],
            HashKind::BitwisePerm => (0..m)
                .map(|i| (field::bit(i), bit_width, format!("address bit of bank bit {i}")))
                .collect(),
            HashKind::BitwiseXor => (0..m)
                .flat_map(|i| {
                    [
                        (field::pair(i, false), bit_width, format!("first address bit of bank bit {i}")),
                        (
                            field::pair(i, true),
                            bit_width,
                            format!("second address bit of bank bit {i} (equal to the first: that bit alone)"),
                        ),
                    ]
                })
                .collect(),
            HashKind::XorMatrix => (0..m)
                .map(|i| (field::row(i), n, format!("address bits XORed into bank bit {i}")))
                .collect(),
        };
        let mut lsb = 0;
        let fields = specs
            .into_iter()
            .map(|(name, width, description)| {
                let field = CfgField {
                    name,
                    lsb,
                    width,
                    description,
                };
                lsb += width;
                field
            })
            .collect();
        Some(Self { fields })
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&CfgField> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Total width of `cfg_i`.
    pub fn width(&self) -> u32 {
        self.fields.iter().map(|f| f.width).sum()
    }

    /// The value of `cfg_i` that programs `config` (of this layout's kind and shape).
    pub fn encode(&self, config: &HashConfig) -> Bits {
        let mut bits = Bits::zero(self.width() as usize);
        let values = config.parameters();
        assert_eq!(
            values.len(),
            self.fields.len(),
            "configuration of another kind"
        );
        for (field, value) in self.fields.iter().zip(values) {
            bits.set_field(field.lsb as usize, field.width as usize, value);
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use models::HashFunction;

    #[test]
    fn bitvector_xor_fermi_layout() {
        let g = Geometry::new(14, 32).unwrap();
        let layout = CfgLayout::for_kind(HashKind::BitvectorXor, g).unwrap();
        let summary: Vec<(&str, u32, u32)> = layout
            .fields
            .iter()
            .map(|f| (f.name.as_str(), f.lsb, f.width))
            .collect();
        // k1 in 0..=9 needs 4 bits, k2 in 0..=13 needs 4, mask 5.
        assert_eq!(summary, vec![("k1", 0, 4), ("k2", 4, 4), ("mask", 8, 5)]);
        let cfg = HashConfig::new(
            g,
            HashFunction::BitvectorXor {
                k1: 2,
                k2: 8,
                mask: 7,
            },
        )
        .unwrap();
        // 7 << 8 | 8 << 4 | 2
        assert_eq!(layout.encode(&cfg).to_hex(), "0782");
    }

    #[test]
    fn one_bit_indices_when_there_is_one_choice() {
        let g = Geometry::new(1, 2).unwrap();
        let layout = CfgLayout::for_kind(HashKind::BitwisePerm, g).unwrap();
        assert_eq!(layout.width(), 1);
        assert!(CfgLayout::for_kind(HashKind::Modulo, g).is_none());
        let g = Geometry::new(64, 65536).unwrap();
        assert_eq!(
            CfgLayout::for_kind(HashKind::XorMatrix, g).unwrap().width(),
            1024
        );
    }
}
