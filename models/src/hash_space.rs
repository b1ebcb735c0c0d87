//! Every configuration a configurable hasher can be programmed with: how many there are, all
//! of them where that is few enough, a covering sample where it is not.
//!
//! A configurable hasher's `cfg_i` holds one field per parameter ([`HashConfig::parameters`]):
//! each field takes the values `0..range` ([`field_ranges`]); the legal configurations are the
//! field combinations [`HashConfig::from_parameters`] accepts (bits of a bitwise permutation
//! distinct, pairs of a bitwise XOR distinct as unordered pairs). [`sweep_configs`] lists all
//! of them when the product of the ranges is at most a bound, and otherwise samples: first, for
//! every field, every value it can take (the other fields random), then random configurations up
//! to a second bound. Rank-deficient configurations are legal values of `cfg_i` and are included:
//! the circuit must compute them as the model does.

use crate::{Geometry, HashConfig, HashKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// How many tries [`sweep_configs`] gives one directed field value before giving it up (other
/// fields are drawn at random and may collide with it).
const DIRECTED_TRIES: usize = 64;

/// The number of values each field of `kind`'s parameters takes, in [`HashConfig::parameters`]
/// order (`2^n` for a matrix row, saturating).
pub fn field_ranges(kind: HashKind, geometry: Geometry) -> Vec<u128> {
    let n = u128::from(geometry.addr_bits());
    let m = geometry.bank_bits();
    let pow2 = |bits: u32| 1u128.checked_shl(bits).unwrap_or(u128::MAX);
    match kind {
        HashKind::Modulo => vec![],
        HashKind::BitvectorPerm => vec![n - u128::from(m) + 1],
        HashKind::BitvectorXor => vec![n - u128::from(m) + 1, n, pow2(m)],
        HashKind::BitwisePerm => vec![n; m as usize],
        HashKind::BitwiseXor => vec![n; 2 * m as usize],
        HashKind::XorMatrix => vec![pow2(geometry.addr_bits()); m as usize],
    }
}

/// The number of field combinations (legal or not), saturating.
pub fn encoded_space(kind: HashKind, geometry: Geometry) -> u128 {
    field_ranges(kind, geometry)
        .into_iter()
        .fold(1u128, u128::saturating_mul)
}

/// The number of legal configurations of `kind` at `geometry`, saturating: ordered choices of
/// `m` distinct bits for a bitwise permutation; for a bitwise XOR, sequences of `m` distinct
/// unordered pairs, a pair of two bits written either way round (`(a, b)` and `(b, a)` are two
/// values of `cfg_i` computing the same bit).
pub fn legal_space(kind: HashKind, geometry: Geometry) -> u128 {
    let n = u128::from(geometry.addr_bits());
    let m = u128::from(geometry.bank_bits());
    // k-permutations of s: s (s-1) ... (s-k+1).
    let perm = |s: u128, k: u128| -> u128 {
        if k > s {
            return 0;
        }
        (0..k).fold(1u128, |acc, i| acc.saturating_mul(s - i))
    };
    let choose = |s: u128, k: u128| -> u128 {
        if k > s {
            return 0;
        }
        (0..k).fold(1u128, |acc, i| acc.saturating_mul(s - i) / (i + 1))
    };
    match kind {
        HashKind::BitwisePerm => perm(n, m),
        HashKind::BitwiseXor => {
            // d bank bits take two-bit pairs (C(n,2) of them, each written 2 ways), the
            // others single bits (n of them); the positions of the d are C(m, d).
            let doubles = n * (n - 1) / 2;
            (0..=m).fold(0u128, |acc, d| {
                let ways = choose(m, d)
                    .saturating_mul(perm(doubles, d))
                    .saturating_mul(perm(n, m - d))
                    .saturating_mul(1u128.checked_shl(d as u32).unwrap_or(u128::MAX));
                acc.saturating_add(ways)
            })
        }
        _ => encoded_space(kind, geometry),
    }
}

/// What [`sweep_configs`] covered for one kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SweepCoverage {
    /// The kind.
    pub kind: HashKind,
    /// Field combinations `cfg_i` encodes within the fields' ranges.
    pub encoded: u128,
    /// Legal configurations among them.
    pub legal: u128,
    /// Configurations listed.
    pub configs: usize,
    /// True when every legal configuration is listed.
    pub exhaustive: bool,
    /// Directed configurations (every value of every field), when sampled.
    pub directed: usize,
    /// Random configurations, when sampled.
    pub random: usize,
}

/// The configurations of `kind` at `geometry` to sweep: all legal ones when the fields encode
/// at most `max_configs` combinations, in the order of the combinations (field 0 fastest);
/// otherwise every value of every field (other fields random, from `seed`) then random legal
/// configurations, `samples` in all (only random ones if the directed ones alone exceed it).
pub fn sweep_configs(
    kind: HashKind,
    geometry: Geometry,
    max_configs: usize,
    samples: usize,
    seed: u64,
) -> (Vec<HashConfig>, SweepCoverage) {
    let ranges = field_ranges(kind, geometry);
    let encoded = encoded_space(kind, geometry);
    let legal = legal_space(kind, geometry);
    let mut coverage = SweepCoverage {
        kind,
        encoded,
        legal,
        configs: 0,
        exhaustive: false,
        directed: 0,
        random: 0,
    };
    let mut configs = Vec::new();
    if encoded <= max_configs as u128 {
        let mut values = vec![0u64; ranges.len()];
        for mut index in 0..encoded {
            for (v, &r) in values.iter_mut().zip(&ranges) {
                *v = (index % r) as u64;
                index /= r;
            }
            if let Ok(c) = HashConfig::from_parameters(kind, geometry, &values) {
                configs.push(c);
            }
        }
        coverage.exhaustive = true;
    } else {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let directed: u128 = ranges.iter().sum();
        if directed <= samples as u128 {
            for (field, &range) in ranges.iter().enumerate() {
                for value in 0..range as u64 {
                    let found = (0..DIRECTED_TRIES).find_map(|_| {
                        let mut values = HashConfig::random(kind, geometry, &mut rng).parameters();
                        values[field] = value;
                        HashConfig::from_parameters(kind, geometry, &values).ok()
                    });
                    configs.extend(found);
                }
            }
            coverage.directed = configs.len();
        }
        while configs.len() < samples {
            configs.push(HashConfig::random(kind, geometry, &mut rng));
        }
        coverage.random = configs.len() - coverage.directed;
    }
    coverage.configs = configs.len();
    (configs, coverage)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fermi() -> Geometry {
        Geometry::new(14, 32).unwrap()
    }

    /// Counted by hand: k in 0..=9; k1 10 x k2 14 x mask 32 = 4480; 14*13*12*11*10 = 240240.
    #[test]
    fn space_sizes_of_the_fermi_shape() {
        let g = fermi();
        assert_eq!(legal_space(HashKind::BitvectorPerm, g), 10);
        assert_eq!(legal_space(HashKind::BitvectorXor, g), 4480);
        assert_eq!(encoded_space(HashKind::BitwisePerm, g), 14u128.pow(5));
        assert_eq!(legal_space(HashKind::BitwisePerm, g), 240_240);
        assert_eq!(encoded_space(HashKind::BitwiseXor, g), 14u128.pow(10));
    }

    /// Bitwise XOR with n = 3, m = 1: pairs (a, b) over 3 bits, all 9 legal.
    /// With n = 3, m = 2 (4 banks): ordered pairs of distinct unordered pairs: 9 * 9 minus the
    /// sequences repeating one unordered pair: (a,a),(a,a): 3; {a,b} twice: 3 pairs x 2 x 2 = 12.
    #[test]
    fn bitwise_xor_legal_space_matches_enumeration() {
        for (n, banks, expected) in [(3, 2, 9u128), (3, 4, 81 - 3 - 12)] {
            let g = Geometry::new(n, banks).unwrap();
            assert_eq!(legal_space(HashKind::BitwiseXor, g), expected);
            let (configs, cov) = sweep_configs(HashKind::BitwiseXor, g, 1000, 0, 1);
            assert!(cov.exhaustive);
            assert_eq!(configs.len() as u128, expected);
        }
    }

    #[test]
    fn small_spaces_are_listed_whole_and_large_ones_sampled_with_every_field_value() {
        let g = fermi();
        let (configs, cov) = sweep_configs(HashKind::BitvectorXor, g, 10_000, 0, 1);
        assert!(cov.exhaustive && configs.len() == 4480);
        let (configs, cov) = sweep_configs(HashKind::BitwiseXor, g, 10_000, 500, 1);
        assert!(!cov.exhaustive);
        assert_eq!((cov.directed, cov.random, configs.len()), (140, 360, 500));
        // Every value of every pair field appears.
        for field in 0..10 {
            for value in 0..14 {
                assert!(
                    configs.iter().any(|c| c.parameters()[field] == value),
                    "field {field} value {value}"
                );
            }
        }
    }
}
