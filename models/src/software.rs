//! The software form of a bank hash: the word index a program stores an address at.
//!
//! A GPU's shared memory puts word index `x` in bank `x mod 2^m`. To give address `a` the bank a
//! hash chooses, a program stores it at an index whose low `m` bits are `bank(a)` (the XOR
//! paper's section 7.2 and Listing 2). The other `n - m` index bits are address bits chosen so
//! that the map is a bijection of the `n`-bit space: the hash's `m` rows and the chosen unit
//! vectors form an invertible `n x n` matrix over GF(2). Bits `m..n` are preferred in that order,
//! so a hash of the form `low bits ^ f(high bits)` keeps the high bits in place, as Listing 2 does.

use crate::{Error, HashConfig};

/// A full-rank hash and the address bits its software index keeps above the bank bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoftwareIndex {
    config: HashConfig,
    kept: Vec<u32>,
}

/// Inserts `v` into a GF(2) basis kept in reduced form; false when `v` depends on it.
pub(crate) fn insert(basis: &mut Vec<u64>, v: u64) -> bool {
    let reduced = basis.iter().fold(v, |r, b| r.min(r ^ b));
    if reduced == 0 {
        return false;
    }
    basis.push(reduced);
    basis.sort_unstable_by(|a, b| b.cmp(a));
    true
}

impl SoftwareIndex {
    /// The software index of `config`; refuses a rank-deficient hash, which no bijection can
    /// realise.
    pub fn new(config: &HashConfig) -> Result<Self, Error> {
        config.check_full_rank()?;
        let g = config.geometry();
        let (n, m) = (g.addr_bits(), g.bank_bits());
        let mut basis = Vec::new();
        for &row in config.to_matrix().rows() {
            insert(&mut basis, row);
        }
        let mut kept: Vec<u32> = (m..n)
            .chain(0..m)
            .filter(|&bit| insert(&mut basis, 1 << bit))
            .collect();
        kept.sort_unstable();
        debug_assert_eq!(kept.len() as u32, n - m);
        Ok(Self {
            config: config.clone(),
            kept,
        })
    }

    /// The hash.
    pub fn config(&self) -> &HashConfig {
        &self.config
    }

    /// The address bits copied, in ascending order, to index bits `m, m + 1, ...`.
    pub fn kept_bits(&self) -> &[u32] {
        &self.kept
    }

    /// The index of word address `addr` (bits above `n` ignored): `bank(addr)` in the low `m`
    /// bits, the kept address bits above them.
    pub fn index(&self, addr: u64) -> u64 {
        let m = self.config.geometry().bank_bits();
        self.kept
            .iter()
            .enumerate()
            .fold(self.config.bank(addr), |x, (i, &bit)| {
                x | ((addr >> bit) & 1) << (m + i as u32)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Geometry, HashFunction, HashKind};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn every_full_rank_hash_gives_a_bijection_with_its_bank_below() {
        let g = Geometry::new(10, 32).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for kind in HashKind::ALL {
            for _ in 0..20 {
                let c = HashConfig::random(kind, g, &mut rng);
                let Ok(s) = SoftwareIndex::new(&c) else {
                    assert!(c.check_full_rank().is_err());
                    continue;
                };
                let mut seen = vec![false; 1024];
                for a in 0..1024 {
                    let x = s.index(a);
                    assert_eq!(x % 32, c.bank(a), "{kind}");
                    assert!(!seen[x as usize], "{kind}: index {x} twice");
                    seen[x as usize] = true;
                }
            }
        }
    }

    /// Listing 2's shape: a hash `low ^ f(high)` keeps the high bits in place.
    #[test]
    fn bitvector_xor_on_the_low_bits_keeps_the_high_bits() {
        let g = Geometry::new(14, 32).unwrap();
        let c = HashConfig::new(
            g,
            HashFunction::BitvectorXor {
                k1: 0,
                k2: 6,
                mask: 3,
            },
        )
        .unwrap();
        let s = SoftwareIndex::new(&c).unwrap();
        assert_eq!(s.kept_bits(), &(5..14).collect::<Vec<_>>()[..]);
        assert_eq!(s.index(0b1100_0000), 0b1100_0011);
    }
}
