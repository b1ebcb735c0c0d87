//! Test vectors for a hasher, computed by the golden model in `models`.
//!
//! Fixed hashers with `n <= 16` are checked exhaustively (every address); wider ones on
//! `vectors` addresses (100 000 by default): 0, all ones, every one-hot address, then seeded
//! random ones. Configurable hashers are checked over at least `configs` configurations (the one
//! given with the request first, then random valid ones) and at least `vectors` vectors in all:
//! `vectors / configs` addresses each, or every address when `2^n` is fewer (see
//! [`configurable_split`]).

use super::{HashDesign, Variant};
use hdl_util::Bits;
use models::HashConfig;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use testbenches::Vector;

/// Largest address width checked exhaustively.
pub const EXHAUSTIVE_MAX_ADDR_BITS: u32 = 16;

/// How many vectors to draw and from which seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct VectorPlan {
    /// Seed of the ChaCha8 generator for addresses and configurations.
    pub seed: u64,
    /// Vectors when not exhaustive (in total, over all configurations).
    pub vectors: usize,
    /// Configurations for a configurable hasher.
    pub configs: usize,
}

impl Default for VectorPlan {
    fn default() -> Self {
        Self {
            seed: 1,
            vectors: 100_000,
            configs: 100,
        }
    }
}

/// Addresses to apply to one configuration: exhaustive when `2^n <= count` (or when asked),
/// otherwise corners then random.
fn addresses(n: u32, count: usize, exhaustive: bool, rng: &mut ChaCha8Rng) -> Vec<u64> {
    let mask = models::geometry::low_mask(n);
    if exhaustive || address_space(n) <= count {
        return (0..=mask).collect();
    }
    let mut out = vec![0, mask];
    out.extend((0..n).map(|b| 1u64 << b));
    out.truncate(count);
    while out.len() < count {
        out.push(rng.gen::<u64>() & mask);
    }
    out
}

/// The number of `n`-bit addresses, saturating at `usize::MAX`.
fn address_space(n: u32) -> usize {
    1usize.checked_shl(n).unwrap_or(usize::MAX)
}

/// For a configurable hasher: how many configurations, and how many addresses each. Each gets
/// `vectors / configs` addresses, or all `2^n` when that is fewer, and configurations are added
/// until the total reaches `vectors`.
pub fn configurable_split(n: u32, plan: &VectorPlan) -> (usize, usize) {
    let configs = plan.configs.max(1);
    let per_config = plan.vectors.div_ceil(configs).clamp(1, address_space(n));
    (configs.max(plan.vectors.div_ceil(per_config)), per_config)
}

/// The vectors for `design` under `plan`, expected values from the golden model.
pub fn vectors(design: &HashDesign, plan: &VectorPlan) -> Vec<Vector> {
    let n = design.geometry.addr_bits();
    let m = design.geometry.bank_bits() as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let vector = |config: &HashConfig, addr: u64, cfg: Option<Bits>| Vector {
        inputs: std::iter::once(Bits::from_u64(addr, n as usize))
            .chain(cfg)
            .collect(),
        expected: vec![Bits::from_u64(config.bank(addr), m)],
    };
    match &design.variant {
        Variant::Fixed(config) => {
            let exhaustive = n <= EXHAUSTIVE_MAX_ADDR_BITS;
            addresses(n, plan.vectors, exhaustive, &mut rng)
                .into_iter()
                .map(|a| vector(config, a, None))
                .collect()
        }
        Variant::Configurable { layout, program } => {
            let (configs, per_config) = configurable_split(n, plan);
            let mut out = Vec::with_capacity(per_config * configs);
            for i in 0..configs {
                let config = match (i, program) {
                    (0, Some(p)) => p.clone(),
                    _ => HashConfig::random(design.kind, design.geometry, &mut rng),
                };
                let cfg = layout.encode(&config);
                for a in addresses(n, per_config, false, &mut rng) {
                    out.push(vector(&config, a, Some(cfg.clone())));
                }
            }
            out
        }
    }
}
