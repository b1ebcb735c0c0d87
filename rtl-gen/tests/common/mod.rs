//! Shared helpers of the integration tests: the matrix of designs they cover.
#![allow(dead_code)]

use models::{HashConfig, HashConfigObject, HashKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtl_gen::hash::HashDesign;

/// The shapes every kind is exercised at: the paper's Fermi case (n = 14, 32 banks), n = m,
/// m = 1, n = 64, the smallest (n = 1) and a wide one (n = 64, 65536 banks).
pub const SHAPES: [(u32, u64); 6] = [(14, 32), (5, 32), (8, 2), (64, 32), (1, 2), (64, 65536)];

/// A fixed configuration of `kind` for a shape, drawn from a seeded generator and full rank.
pub fn fixed_config(kind: HashKind, n: u32, banks: u64) -> HashConfigObject {
    let g = models::Geometry::new(n, banks).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(n) * 1000 + banks);
    loop {
        let c = HashConfig::random(kind, g, &mut rng);
        if c.check_full_rank().is_ok() {
            return HashConfigObject::from_config(&c);
        }
    }
}

/// The variants a kind has: (configurable, pipeline).
pub fn variants(kind: HashKind) -> Vec<(bool, bool)> {
    if kind == HashKind::Modulo {
        vec![(false, false), (false, true)]
    } else {
        vec![(false, false), (true, false), (false, true), (true, true)]
    }
}

/// The design of `kind` at a shape and variant.
pub fn design(
    kind: HashKind,
    n: u32,
    banks: u64,
    configurable: bool,
    pipeline: bool,
) -> HashDesign {
    HashDesign::new(&fixed_config(kind, n, banks), configurable, pipeline, false).unwrap()
}

/// Every design of the matrix.
pub fn all_designs() -> Vec<HashDesign> {
    let mut out = Vec::new();
    for kind in HashKind::ALL {
        for (n, banks) in SHAPES {
            for (c, p) in variants(kind) {
                out.push(design(kind, n, banks, c, p));
            }
        }
    }
    out
}
