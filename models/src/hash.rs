//! The hash families of the XOR paper's section 4 as golden functions.
//!
//! A hash maps an `n`-bit word address to one of `2^m` banks. Address bits at positions `>= n`
//! read as zero, which defines every family for every parameter value a configuration register
//! can hold (a shifted-out bit-vector simply brings in zeros).

use crate::{geometry::low_mask, Error, Geometry, XorMatrix};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// The hash families, named as on the command line and in configuration files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HashKind {
    /// `bank = addr mod 2^m`: the baseline, the `m` least significant bits.
    Modulo,
    /// `bank = addr[k .. k+m)`: one bit-vector (section 4.1).
    BitvectorPerm,
    /// `bank = (addr >> k1) ^ ((addr >> k2) & mask)`: two bit-vectors (section 4.2).
    BitvectorXor,
    /// `bank[i] = addr[bits[i]]`: `m` individually chosen bits (section 4.3).
    BitwisePerm,
    /// `bank[i] = addr[a_i] ^ addr[b_i]`, a pair `(a, a)` being the single bit `a` (section 4.4).
    BitwiseXor,
    /// Any `m x n` matrix over GF(2): the family that contains all the others.
    XorMatrix,
}

impl HashKind {
    /// Every kind, in the paper's order with the general matrix last.
    pub const ALL: [HashKind; 6] = [
        HashKind::Modulo,
        HashKind::BitvectorPerm,
        HashKind::BitvectorXor,
        HashKind::BitwisePerm,
        HashKind::BitwiseXor,
        HashKind::XorMatrix,
    ];

    /// The name used on the command line and in JSON (`bitvector-xor`).
    pub fn name(self) -> &'static str {
        match self {
            HashKind::Modulo => "modulo",
            HashKind::BitvectorPerm => "bitvector-perm",
            HashKind::BitvectorXor => "bitvector-xor",
            HashKind::BitwisePerm => "bitwise-perm",
            HashKind::BitwiseXor => "bitwise-xor",
            HashKind::XorMatrix => "xor-matrix",
        }
    }

    /// The short tag used in module names (`hash_bvxor_n14_b32`).
    pub fn tag(self) -> &'static str {
        match self {
            HashKind::Modulo => "mod",
            HashKind::BitvectorPerm => "bvperm",
            HashKind::BitvectorXor => "bvxor",
            HashKind::BitwisePerm => "bwperm",
            HashKind::BitwiseXor => "bwxor",
            HashKind::XorMatrix => "xormat",
        }
    }

    /// The configuration fields of this kind, as named in JSON and on the command line.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            HashKind::Modulo => &[],
            HashKind::BitvectorPerm => &["k"],
            HashKind::BitvectorXor => &["k1", "k2", "mask"],
            HashKind::BitwisePerm => &["bits"],
            HashKind::BitwiseXor => &["pairs"],
            HashKind::XorMatrix => &["rows"],
        }
    }
}

impl fmt::Display for HashKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HashKind {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        HashKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| Error::OutOfRange {
                name: "kind".into(),
                value: s.into(),
                allowed: HashKind::ALL.map(HashKind::name).join(", "),
            })
    }
}

/// The parameters of one hash family (the configuration without the memory shape).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HashFunction {
    /// See [`HashKind::Modulo`].
    Modulo,
    /// See [`HashKind::BitvectorPerm`]; `k` in `0..=n-m`.
    BitvectorPerm {
        /// Position of the selected bit-vector's least significant bit.
        k: u32,
    },
    /// See [`HashKind::BitvectorXor`]; `k1` in `0..=n-m`, `k2` in `0..n`, `mask < 2^m`.
    BitvectorXor {
        /// Offset of the first bit-vector.
        k1: u32,
        /// Offset of the second, masked bit-vector.
        k2: u32,
        /// Which bits of the second vector take part.
        mask: u64,
    },
    /// See [`HashKind::BitwisePerm`]; `m` distinct bits below `n`, bank bit 0 first.
    BitwisePerm {
        /// The address bit feeding each bank bit.
        bits: Vec<u32>,
    },
    /// See [`HashKind::BitwiseXor`]; `m` distinct unordered pairs of bits below `n`.
    BitwiseXor {
        /// The pair of address bits XORed into each bank bit.
        pairs: Vec<(u32, u32)>,
    },
    /// See [`HashKind::XorMatrix`]; `m` rows of `n`-bit masks.
    XorMatrix {
        /// One mask per bank bit, bank bit 0 first.
        rows: Vec<u64>,
    },
}

impl HashFunction {
    /// The family this function belongs to.
    pub fn kind(&self) -> HashKind {
        match self {
            HashFunction::Modulo => HashKind::Modulo,
            HashFunction::BitvectorPerm { .. } => HashKind::BitvectorPerm,
            HashFunction::BitvectorXor { .. } => HashKind::BitvectorXor,
            HashFunction::BitwisePerm { .. } => HashKind::BitwisePerm,
            HashFunction::BitwiseXor { .. } => HashKind::BitwiseXor,
            HashFunction::XorMatrix { .. } => HashKind::XorMatrix,
        }
    }
}

/// A validated hash: a memory shape and a function whose parameters fit it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HashConfig {
    geometry: Geometry,
    function: HashFunction,
}

fn out_of_range(name: impl Into<String>, value: impl fmt::Display, allowed: String) -> Error {
    Error::OutOfRange {
        name: name.into(),
        value: value.to_string(),
        allowed,
    }
}

fn check_bit(name: String, bit: u32, n: u32) -> Result<(), Error> {
    if bit >= n {
        return Err(out_of_range(
            name,
            bit,
            format!("an address bit 0 to {}", n - 1),
        ));
    }
    Ok(())
}

fn check_count<T>(name: &str, list: &[T], m: u32) -> Result<(), Error> {
    if list.len() != m as usize {
        return Err(Error::WrongLength {
            name: name.into(),
            given: list.len(),
            expected: m as usize,
        });
    }
    Ok(())
}

impl HashConfig {
    /// Validates `function` against `geometry`: every offset, bit and mask must address bits
    /// that exist, and lists must have one distinct entry per bank bit. Rank is checked
    /// separately by [`HashConfig::check_full_rank`], because a rank-deficient hash is legal if
    /// the user asks for it.
    pub fn new(geometry: Geometry, function: HashFunction) -> Result<Self, Error> {
        let n = geometry.addr_bits();
        let m = geometry.bank_bits();
        match &function {
            HashFunction::Modulo => {}
            HashFunction::BitvectorPerm { k } => {
                if *k > n - m {
                    return Err(out_of_range("k", k, format!("0 to n - m = {}", n - m)));
                }
            }
            HashFunction::BitvectorXor { k1, k2, mask } => {
                if *k1 > n - m {
                    return Err(out_of_range("k1", k1, format!("0 to n - m = {}", n - m)));
                }
                if *k2 >= n {
                    return Err(out_of_range("k2", k2, format!("0 to n - 1 = {}", n - 1)));
                }
                if *mask > geometry.bank_mask() {
                    return Err(out_of_range(
                        "mask",
                        format!("{mask:#x}"),
                        format!("at most {m} bits (0 to {:#x})", geometry.bank_mask()),
                    ));
                }
            }
            HashFunction::BitwisePerm { bits } => {
                check_count("bits", bits, m)?;
                let mut seen = BTreeSet::new();
                for (i, &b) in bits.iter().enumerate() {
                    check_bit(format!("bits[{i}]"), b, n)?;
                    if !seen.insert(b) {
                        return Err(Error::Repeated {
                            name: "bits".into(),
                            value: b.to_string(),
                        });
                    }
                }
            }
            HashFunction::BitwiseXor { pairs } => {
                check_count("pairs", pairs, m)?;
                let mut seen = BTreeSet::new();
                for (i, &(a, b)) in pairs.iter().enumerate() {
                    check_bit(format!("pairs[{i}]"), a, n)?;
                    check_bit(format!("pairs[{i}]"), b, n)?;
                    if !seen.insert((a.min(b), a.max(b))) {
                        return Err(Error::Repeated {
                            name: "pairs".into(),
                            value: format!("{a}:{b}"),
                        });
                    }
                }
            }
            HashFunction::XorMatrix { rows } => {
                check_count("rows", rows, m)?;
                for (i, row) in rows.iter().enumerate() {
                    if row & !geometry.addr_mask() != 0 {
                        return Err(out_of_range(
                            format!("rows[{i}]"),
                            format!("{row:#x}"),
                            format!(
                                "a mask of the {n} address bits (at most {:#x})",
                                geometry.addr_mask()
                            ),
                        ));
                    }
                }
            }
        }
        Ok(Self { geometry, function })
    }

    /// The memory shape.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The function and its parameters.
    pub fn function(&self) -> &HashFunction {
        &self.function
    }

    /// The family.
    pub fn kind(&self) -> HashKind {
        self.function.kind()
    }

    /// The golden function: the bank of word address `addr` (bits above `n` are ignored),
    /// computed with each family's own formula from the paper, not through the matrix.
    pub fn bank(&self, addr: u64) -> u64 {
        let addr = addr & self.geometry.addr_mask();
        let bank_mask = self.geometry.bank_mask();
        let bit = |i: u32| if i < 64 { (addr >> i) & 1 } else { 0 };
        match &self.function {
            HashFunction::Modulo => addr & bank_mask,
            HashFunction::BitvectorPerm { k } => shr(addr, *k) & bank_mask,
            HashFunction::BitvectorXor { k1, k2, mask } => {
                (shr(addr, *k1) ^ (shr(addr, *k2) & mask)) & bank_mask
            }
            HashFunction::BitwisePerm { bits } => bits
                .iter()
                .enumerate()
                .fold(0, |bank, (i, &b)| bank | (bit(b) << i)),
            HashFunction::BitwiseXor { pairs } => {
                pairs.iter().enumerate().fold(0, |bank, (i, &(a, b))| {
                    let v = if a == b { bit(a) } else { bit(a) ^ bit(b) };
                    bank | (v << i)
                })
            }
            HashFunction::XorMatrix { rows } => rows.iter().enumerate().fold(0, |bank, (i, r)| {
                bank | (u64::from((addr & r).count_ones() & 1) << i)
            }),
        }
    }

    /// The parameter values in the order the configuration lists them: `k`; `k1`, `k2`, `mask`;
    /// `bits[0..m]`; `pairs` flattened (`a0`, `b0`, `a1`, ...); `rows`. A configurable hasher's
    /// `cfg_i` packs these fields in this order; [`HashConfig::from_parameters`] reads them back.
    pub fn parameters(&self) -> Vec<u64> {
        match &self.function {
            HashFunction::Modulo => vec![],
            HashFunction::BitvectorPerm { k } => vec![u64::from(*k)],
            HashFunction::BitvectorXor { k1, k2, mask } => {
                vec![u64::from(*k1), u64::from(*k2), *mask]
            }
            HashFunction::BitwisePerm { bits } => bits.iter().map(|&b| u64::from(b)).collect(),
            HashFunction::BitwiseXor { pairs } => pairs
                .iter()
                .flat_map(|&(a, b)| [u64::from(a), u64::from(b)])
                .collect(),
            HashFunction::XorMatrix { rows } => rows.clone(),
        }
    }

    /// The configuration of `kind` at `geometry` whose [`HashConfig::parameters`] are `values`,
    /// validated as [`HashConfig::new`] does; a list of the wrong length is
    /// [`Error::WrongLength`].
    pub fn from_parameters(
        kind: HashKind,
        geometry: Geometry,
        values: &[u64],
    ) -> Result<Self, Error> {
        let m = geometry.bank_bits() as usize;
        let expected = match kind {
            HashKind::Modulo => 0,
            HashKind::BitvectorPerm => 1,
            HashKind::BitvectorXor => 3,
            HashKind::BitwisePerm | HashKind::XorMatrix => m,
            HashKind::BitwiseXor => 2 * m,
        };
        if values.len() != expected {
            return Err(Error::WrongLength {
                name: "parameters".into(),
                given: values.len(),
                expected,
            });
        }
        // Indices wider than 32 bits are out of every range; saturate so validation names them.
        let index = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        let function = match kind {
            HashKind::Modulo => HashFunction::Modulo,
            HashKind::BitvectorPerm => HashFunction::BitvectorPerm {
                k: index(values[0]),
            },
            HashKind::BitvectorXor => HashFunction::BitvectorXor {
                k1: index(values[0]),
                k2: index(values[1]),
                mask: values[2],
            },
            HashKind::BitwisePerm => HashFunction::BitwisePerm {
                bits: values.iter().map(|&v| index(v)).collect(),
            },
            HashKind::BitwiseXor => HashFunction::BitwiseXor {
                pairs: values
                    .chunks(2)
                    .map(|p| (index(p[0]), index(p[1])))
                    .collect(),
            },
            HashKind::XorMatrix => HashFunction::XorMatrix {
                rows: values.to_vec(),
            },
        };
        Self::new(geometry, function)
    }

    /// The same hash as an `m x n` GF(2) matrix.
    pub fn to_matrix(&self) -> XorMatrix {
        let n = self.geometry.addr_bits();
        let m = self.geometry.bank_bits();
        let at = |bit: u32| if bit < n { 1u64 << bit } else { 0 };
        let rows = match &self.function {
            HashFunction::Modulo => (0..m).map(at).collect(),
            HashFunction::BitvectorPerm { k } => (0..m).map(|i| at(k + i)).collect(),
            HashFunction::BitvectorXor { k1, k2, mask } => (0..m)
                .map(|i| at(k1 + i) ^ if mask >> i & 1 == 1 { at(k2 + i) } else { 0 })
                .collect(),
            HashFunction::BitwisePerm { bits } => bits.iter().map(|&b| at(b)).collect(),
            HashFunction::BitwiseXor { pairs } => pairs
                .iter()
                .map(|&(a, b)| if a == b { at(a) } else { at(a) ^ at(b) })
                .collect(),
            HashFunction::XorMatrix { rows } => rows.clone(),
        };
        debug_assert!(rows.iter().all(|r: &u64| r & !low_mask(n) == 0));
        XorMatrix::new(n, rows)
    }

    /// A uniformly random valid configuration of `kind` for `geometry` (for testbenches and
    /// searches; random xor-matrices may be rank-deficient).
    pub fn random(kind: HashKind, geometry: Geometry, rng: &mut impl Rng) -> Self {
        let n = geometry.addr_bits();
        let m = geometry.bank_bits() as usize;
        let function = match kind {
            HashKind::Modulo => HashFunction::Modulo,
            HashKind::BitvectorPerm => HashFunction::BitvectorPerm {
                k: rng.gen_range(0..=n - m as u32),
            },
            HashKind::BitvectorXor => HashFunction::BitvectorXor {
                k1: rng.gen_range(0..=n - m as u32),
                k2: rng.gen_range(0..n),
                mask: rng.gen::<u64>() & geometry.bank_mask(),
            },
            HashKind::BitwisePerm => {
                let mut bits: Vec<u32> = (0..n).collect();
                bits.shuffle(rng);
                bits.truncate(m);
                HashFunction::BitwisePerm { bits }
            }
            HashKind::BitwiseXor => {
                let mut pairs: Vec<(u32, u32)> =
                    (0..n).flat_map(|a| (a..n).map(move |b| (a, b))).collect();
                pairs.shuffle(rng);
                pairs.truncate(m);
                let pairs = pairs
                    .into_iter()
                    .map(|(a, b)| if rng.gen() { (a, b) } else { (b, a) })
                    .collect();
                HashFunction::BitwiseXor { pairs }
            }
            HashKind::XorMatrix => HashFunction::XorMatrix {
                rows: (0..m)
                    .map(|_| rng.gen::<u64>() & geometry.addr_mask())
                    .collect(),
            },
        };
        Self::new(geometry, function)
            .unwrap_or_else(|e| unreachable!("random {kind} config invalid: {e}"))
    }

    /// Refuses a hash whose matrix has rank below `m`: some banks could never be reached.
    pub fn check_full_rank(&self) -> Result<(), Error> {
        let rank = self.to_matrix().rank();
        let m = self.geometry.bank_bits();
        if rank < m {
            return Err(Error::RankDeficient {
                rank,
                bank_bits: m,
                reachable: 1 << rank,
                banks: self.geometry.banks(),
            });
        }
        Ok(())
    }
}

/// `value >> amount`, zero for shifts of 64 or more.
fn shr(value: u64, amount: u32) -> u64 {
    value.checked_shr(amount).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(n: u32, banks: u64, f: HashFunction) -> HashConfig {
        HashConfig::new(Geometry::new(n, banks).unwrap(), f).unwrap()
    }

    /// The paper's Fig. 5: k1 = 2, k2 = 8, mask = 7 gives b0 = a2^a8, b1 = a3^a9, b2 = a4^a10,
    /// b3 = a5, b4 = a6.
    #[test]
    fn figure_5_bitvector_xor() {
        let h = cfg(
            14,
            32,
            HashFunction::BitvectorXor {
                k1: 2,
                k2: 8,
                mask: 7,
            },
        );
        let expected_rows = vec![
            (1 << 2) | (1 << 8),
            (1 << 3) | (1 << 9),
            (1 << 4) | (1 << 10),
            1 << 5,
            1 << 6,
        ];
        assert_eq!(h.to_matrix().rows(), expected_rows.as_slice());
        // a2 and a8 set: they cancel in b0.
        assert_eq!(h.bank((1 << 2) | (1 << 8)), 0);
        // a6 alone: b4.
        assert_eq!(h.bank(1 << 6), 0b10000);
        // a10 alone: b2.
        assert_eq!(h.bank(1 << 10), 0b00100);
        // a13 is never used.
        assert_eq!(h.bank(1 << 13), 0);
    }

    /// The addresses of the paper's Fig. 6 under the bits {0, 3, 4} its heuristic selects, banks
    /// worked out by hand: 6 and 4 share bank 0, every other bank holds one address.
    #[test]
    fn figure_6_addresses_under_bits_0_3_4() {
        let h = cfg(
            5,
            8,
            HashFunction::BitwisePerm {
                bits: vec![0, 3, 4],
            },
        );
        let banks: Vec<u64> = [27, 12, 6, 19, 11, 4, 28, 3]
            .iter()
            .map(|&a| h.bank(a))
            .collect();
        assert_eq!(banks, vec![7, 2, 0, 5, 3, 0, 6, 1]);
    }

    #[test]
    fn bitwise_xor_pair_with_itself_is_the_single_bit() {
        let h = cfg(
            6,
            8,
            HashFunction::BitwiseXor {
                pairs: vec![(0, 5), (1, 4), (2, 2)],
            },
        );
        assert_eq!(h.bank(0b100000), 0b001);
        assert_eq!(h.bank(0b100001), 0b000);
        assert_eq!(h.bank(0b000100), 0b100);
    }

    #[test]
    fn validation_names_the_bad_value() {
        let g = Geometry::new(14, 32).unwrap();
        let e = HashConfig::new(g, HashFunction::BitvectorPerm { k: 10 }).unwrap_err();
        assert_eq!(
            e.to_string(),
            "k = 10 is out of range: allowed 0 to n - m = 9"
        );
        let e = HashConfig::new(
            g,
            HashFunction::BitvectorXor {
                k1: 0,
                k2: 14,
                mask: 1,
            },
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("k2 = 14"), "{e}");
        let e = HashConfig::new(
            g,
            HashFunction::BitvectorXor {
                k1: 0,
                k2: 4,
                mask: 32,
            },
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("mask = 0x20"), "{e}");
        let e = HashConfig::new(
            g,
            HashFunction::BitwisePerm {
                bits: vec![0, 1, 2, 3, 3],
            },
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "bits repeats 3: every entry must be distinct"
        );
        let e = HashConfig::new(
            g,
            HashFunction::BitwisePerm {
                bits: vec![0, 1, 2, 3, 14],
            },
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("bits[4] = 14"), "{e}");
        let e = HashConfig::new(
            g,
            HashFunction::BitwiseXor {
                pairs: vec![(0, 1); 4],
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("4 entries: expected 5"), "{e}");
        let e = HashConfig::new(
            g,
            HashFunction::XorMatrix {
                rows: vec![1, 2, 4, 8, 1 << 14],
            },
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("rows[4] = 0x4000"), "{e}");
    }

    #[test]
    fn rank_deficiency_is_detected() {
        let h = cfg(
            6,
            8,
            HashFunction::XorMatrix {
                rows: vec![0b011, 0b110, 0b101],
            },
        );
        let e = h.check_full_rank().unwrap_err().to_string();
        assert!(
            e.contains("rank 2") && e.contains("only 4 of 8 banks"),
            "{e}"
        );
        // k1 == k2 with a mask bit set cancels that bank bit entirely.
        let h = cfg(
            14,
            32,
            HashFunction::BitvectorXor {
                k1: 3,
                k2: 3,
                mask: 1,
            },
        );
        assert!(h.check_full_rank().is_err());
        let h = cfg(
            14,
            32,
            HashFunction::BitvectorXor {
                k1: 2,
                k2: 8,
                mask: 7,
            },
        );
        assert!(h.check_full_rank().is_ok());
    }

    #[test]
    fn kind_names_round_trip() {
        for k in HashKind::ALL {
            assert_eq!(k.name().parse::<HashKind>().unwrap(), k);
        }
        let e = "bitvector".parse::<HashKind>().unwrap_err().to_string();
        assert!(
            e.contains("kind = bitvector") && e.contains("xor-matrix"),
            "{e}"
        );
    }
}
