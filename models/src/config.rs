//! The configuration object shared by `--config` files, command-line flags and manifests.
//!
//! ```json
//! {"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 2, "k2": 8, "mask": 7}
//! ```
//! The kind's fields are named as the command-line flags: `k`; `k1`, `k2`, `mask`; `bits`;
//! `pairs` as `[a, b]` lists; `rows` as hexadecimal strings (`"0x104"`) or integers. A
//! configurable hasher needs only `kind`, `addr_bits` and `banks`; its fields may be left out.

use crate::{Error, Geometry, HashConfig, HashFunction, HashKind};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One row of an xor-matrix: written as a hexadecimal string, read from a string or an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowMask(pub u64);

impl Serialize for RowMask {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:#x}", self.0))
    }
}

impl<'de> Deserialize<'de> for RowMask {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(u64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Int(v) => Ok(RowMask(v)),
            Raw::Text(t) => parse_u64(&t).map(RowMask).map_err(serde::de::Error::custom),
        }
    }
}

/// Parses a decimal or `0x`/`0b`-prefixed unsigned integer; the error names the text.
pub fn parse_u64(text: &str) -> Result<u64, String> {
    let t = text.trim().replace('_', "");
    let parsed = if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16)
    } else if let Some(bin) = t.strip_prefix("0b") {
        u64::from_str_radix(bin, 2)
    } else {
        t.parse()
    };
    parsed.map_err(|_| {
        format!("`{text}` is not an unsigned 64-bit integer (decimal, 0x hex or 0b binary)")
    })
}

/// The raw configuration object as written in JSON, before validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HashConfigObject {
    /// The hash family.
    pub kind: HashKind,
    /// Word-address bits `n`.
    pub addr_bits: u32,
    /// Number of banks, a power of two.
    pub banks: u64,
    /// Bit-vector offset of `bitvector-perm`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<u32>,
    /// First offset of `bitvector-xor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k1: Option<u32>,
    /// Second offset of `bitvector-xor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k2: Option<u32>,
    /// Mask of the second vector of `bitvector-xor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask: Option<u64>,
    /// Selected address bits of `bitwise-perm`, bank bit 0 first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<Vec<u32>>,
    /// Bit pairs of `bitwise-xor`, bank bit 0 first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<[u32; 2]>>,
    /// Row masks of `xor-matrix`, bank bit 0 first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<Vec<RowMask>>,
}

impl HashConfigObject {
    /// An object with only the kind and the shape (what a configurable hasher needs).
    pub fn new(kind: HashKind, addr_bits: u32, banks: u64) -> Self {
        Self {
            kind,
            addr_bits,
            banks,
            k: None,
            k1: None,
            k2: None,
            mask: None,
            bits: None,
            pairs: None,
            rows: None,
        }
    }

    /// The object describing a validated configuration (the inverse of [`Self::validate`]).
    pub fn from_config(config: &HashConfig) -> Self {
        let g = config.geometry();
        let mut o = Self::new(config.kind(), g.addr_bits(), g.banks());
        match config.function() {
            HashFunction::Modulo => {}
            HashFunction::BitvectorPerm { k } => o.k = Some(*k),
            HashFunction::BitvectorXor { k1, k2, mask } => {
                o.k1 = Some(*k1);
                o.k2 = Some(*k2);
                o.mask = Some(*mask);
            }
            HashFunction::BitwisePerm { bits } => o.bits = Some(bits.clone()),
            HashFunction::BitwiseXor { pairs } => {
                o.pairs = Some(pairs.iter().map(|&(a, b)| [a, b]).collect())
            }
            HashFunction::XorMatrix { rows } => {
                o.rows = Some(rows.iter().copied().map(RowMask).collect())
            }
        }
        o
    }

    /// Parses the JSON text of a configuration object; unknown keys are refused.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Fields that are present, by name.
    fn present_fields(&self) -> Vec<&'static str> {
        [
            ("k", self.k.is_some()),
            ("k1", self.k1.is_some()),
            ("k2", self.k2.is_some()),
            ("mask", self.mask.is_some()),
            ("bits", self.bits.is_some()),
            ("pairs", self.pairs.is_some()),
            ("rows", self.rows.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, present)| present.then_some(name))
        .collect()
    }

    /// Validates the object. Returns the shape and, when the kind's fields are given, the
    /// validated configuration; `None` when none of them is given (a configurable hasher's
    /// object). A field of another kind, or only some of the kind's fields, is an error.
    pub fn validate(&self) -> Result<(Geometry, Option<HashConfig>), Error> {
        let geometry = Geometry::new(self.addr_bits, self.banks)?;
        let kind = self.kind;
        let own = kind.fields();
        let present = self.present_fields();
        if let Some(field) = present.iter().find(|f| !own.contains(f)) {
            return Err(Error::FieldNotAllowed {
                kind: kind.name(),
                field,
                allowed: if own.is_empty() {
                    "none".into()
                } else {
                    own.join(", ")
                },
            });
        }
        if present.is_empty() && kind != HashKind::Modulo {
            return Ok((geometry, None));
        }
        if let Some(field) = own.iter().find(|f| !present.contains(f)) {
            return Err(Error::MissingField {
                kind: kind.name(),
                field,
            });
        }
        let function = match kind {
            HashKind::Modulo => HashFunction::Modulo,
            HashKind::BitvectorPerm => HashFunction::BitvectorPerm {
                k: self.k.unwrap_or(0),
            },
            HashKind::BitvectorXor => HashFunction::BitvectorXor {
                k1: self.k1.unwrap_or(0),
                k2: self.k2.unwrap_or(0),
                mask: self.mask.unwrap_or(0),
            },
            HashKind::BitwisePerm => HashFunction::BitwisePerm {
                bits: self.bits.clone().unwrap_or_default(),
            },
            HashKind::BitwiseXor => HashFunction::BitwiseXor {
                pairs: self.pairs.iter().flatten().map(|&[a, b]| (a, b)).collect(),
            },
            HashKind::XorMatrix => HashFunction::XorMatrix {
                rows: self.rows.iter().flatten().map(|r| r.0).collect(),
            },
        };
        Ok((geometry, Some(HashConfig::new(geometry, function)?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_issue_example_and_round_trips() {
        let text = r#"{"kind": "bitvector-xor", "addr_bits": 14, "banks": 32, "k1": 2, "k2": 8, "mask": 7}"#;
        let obj = HashConfigObject::from_json(text).unwrap();
        let (g, cfg) = obj.validate().unwrap();
        assert_eq!(g.bank_bits(), 5);
        let cfg = cfg.unwrap();
        assert_eq!(
            cfg.function(),
            &HashFunction::BitvectorXor {
                k1: 2,
                k2: 8,
                mask: 7
            }
        );
        assert_eq!(HashConfigObject::from_config(&cfg), obj);
    }

    #[test]
    fn rows_are_written_as_hex_and_read_from_either() {
        let text = r#"{"kind":"xor-matrix","addr_bits":8,"banks":4,"rows":["0x11", 34]}"#;
        let obj = HashConfigObject::from_json(text).unwrap();
        let (_, cfg) = obj.validate().unwrap();
        let written = serde_json::to_string(&HashConfigObject::from_config(&cfg.unwrap())).unwrap();
        assert_eq!(
            written,
            r#"{"kind":"xor-matrix","addr_bits":8,"banks":4,"rows":["0x11","0x22"]}"#
        );
    }

    #[test]
    fn refuses_unknown_keys_foreign_fields_and_partial_configs() {
        let e = HashConfigObject::from_json(r#"{"kind":"modulo","addr_bits":8,"banks":4,"kk":1}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `kk`"), "{e}");
        let obj = HashConfigObject::from_json(
            r#"{"kind":"bitvector-xor","addr_bits":8,"banks":4,"k":1}"#,
        )
        .unwrap();
        assert_eq!(
            obj.validate().unwrap_err().to_string(),
            "`k` does not apply to kind bitvector-xor (its fields: k1, k2, mask)"
        );
        let obj = HashConfigObject::from_json(
            r#"{"kind":"bitvector-xor","addr_bits":8,"banks":4,"k1":1}"#,
        )
        .unwrap();
        assert_eq!(
            obj.validate().unwrap_err().to_string(),
            "kind bitvector-xor needs `k2`"
        );
        let obj = HashConfigObject::from_json(r#"{"kind":"bitwise-perm","addr_bits":8,"banks":4}"#)
            .unwrap();
        assert!(obj.validate().unwrap().1.is_none());
        assert!(HashConfigObject::from_json(r#"{"kind":"modulo","addr_bits":8"#).is_err());
    }

    #[test]
    fn parse_u64_accepts_the_usual_bases() {
        assert_eq!(parse_u64("0x1f"), Ok(31));
        assert_eq!(parse_u64("0b101"), Ok(5));
        assert_eq!(parse_u64("42"), Ok(42));
        assert!(parse_u64("0xzz").unwrap_err().contains("`0xzz`"));
    }
}
