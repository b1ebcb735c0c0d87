//! The stimulus a hasher is checked with: which configurations, which addresses, in which
//! order, drawn lazily from one seeded generator.
//!
//! Two checkers share it: the file-based testbench (rtl-gen writes every vector to a file
//! before the simulation) and the DPI-C golden model (the simulation draws each vector from
//! this stream while it runs). Both therefore check the same vectors in the same order, and a
//! broken circuit fails the same vectors under either.
//!
//! - A fixed hasher with `n <= 16` is checked on every address; a wider one on `vectors`
//!   addresses: 0, all ones, every one-hot address, then seeded random ones.
//! - A configurable hasher is checked over at least `configs` configurations (the one given
//!   with the request first, then random valid ones) and at least `vectors` vectors in all:
//!   `vectors / configs` addresses each, or every address when `2^n` is fewer (see
//!   [`configurable_split`]).
//! - A configuration sweep ([`HashStimulus::sweep`]) checks every configuration of a list (see
//!   [`crate::hash_space`]) on every address.

use crate::{geometry::low_mask, Geometry, HashConfig, HashKind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Largest address width checked exhaustively by a fixed hasher's stimulus.
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

/// The addresses applied to one configuration, drawn one at a time: every address when
/// `exhaustive` (or when `2^n <= count`), otherwise 0, all ones, the one-hot addresses, then
/// random ones, `count` in all.
#[derive(Debug, Clone)]
struct Addresses {
    mask: u64,
    exhaustive: bool,
    count: u64,
    next: u64,
    corners: Vec<u64>,
}

impl Addresses {
    fn new(n: u32, count: usize, exhaustive: bool) -> Self {
        let mask = low_mask(n);
        if exhaustive || address_space(n) <= count {
            return Self {
                mask,
                exhaustive: true,
                count: mask.wrapping_add(1),
                next: 0,
                corners: Vec::new(),
            };
        }
        let mut corners = vec![0, mask];
        corners.extend((0..n).map(|b| 1u64 << b));
        corners.truncate(count);
        Self {
            mask,
            exhaustive: false,
            count: count as u64,
            next: 0,
            corners,
        }
    }

    fn next(&mut self, rng: &mut ChaCha8Rng) -> Option<u64> {
        if self.next == self.count {
            return None;
        }
        let i = self.next;
        self.next += 1;
        Some(if self.exhaustive {
            i
        } else if let Some(&corner) = self.corners.get(i as usize) {
            corner
        } else {
            rng.gen::<u64>() & self.mask
        })
    }
}

/// Where the stream's configurations come from.
#[derive(Debug, Clone)]
enum Configs {
    /// One configuration for the whole stream (a fixed hasher).
    Fixed(HashConfig),
    /// `program` first if given, then random valid ones of `kind`.
    Random {
        kind: HashKind,
        program: Option<HashConfig>,
    },
    /// The listed configurations, in order.
    Listed(std::vec::IntoIter<HashConfig>),
}

/// One vector of a [`HashStimulus`]: the address, and whether it is the first one of a new
/// configuration (read it with [`HashStimulus::config`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The word address to apply.
    pub addr: u64,
    /// True for the first address of each configuration.
    pub new_config: bool,
}

/// A lazily drawn stream of (configuration, address) vectors; see the module documentation.
#[derive(Debug, Clone)]
pub struct HashStimulus {
    rng: ChaCha8Rng,
    geometry: Geometry,
    configs: Configs,
    config_count: usize,
    per_config: usize,
    exhaustive: bool,
    started: usize,
    config: Option<HashConfig>,
    addresses: Option<Addresses>,
}

impl HashStimulus {
    /// The stimulus of a fixed hasher running `config`.
    pub fn fixed(config: HashConfig, plan: &VectorPlan) -> Self {
        let n = config.geometry().addr_bits();
        Self::new(
            config.geometry(),
            Configs::Fixed(config),
            1,
            plan.vectors,
            n <= EXHAUSTIVE_MAX_ADDR_BITS,
            plan.seed,
        )
    }

    /// The stimulus of a configurable hasher of `kind`: `program` first if given, then random
    /// valid configurations, split as [`configurable_split`] says.
    pub fn configurable(
        kind: HashKind,
        geometry: Geometry,
        program: Option<HashConfig>,
        plan: &VectorPlan,
    ) -> Self {
        let (configs, per_config) = configurable_split(geometry.addr_bits(), plan);
        Self::new(
            geometry,
            Configs::Random { kind, program },
            configs,
            per_config,
            false,
            plan.seed,
        )
    }

    /// Every configuration of `configs` (all of one shape) against every address.
    ///
    /// # Panics
    /// If `configs` is empty.
    pub fn sweep(configs: Vec<HashConfig>) -> Self {
        let geometry = configs
            .first()
            .map(HashConfig::geometry)
            .expect("HashStimulus::sweep: no configuration to sweep");
        let count = configs.len();
        Self::new(
            geometry,
            Configs::Listed(configs.into_iter()),
            count,
            address_space(geometry.addr_bits()),
            true,
            0,
        )
    }

    fn new(
        geometry: Geometry,
        configs: Configs,
        config_count: usize,
        per_config: usize,
        exhaustive: bool,
        seed: u64,
    ) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            geometry,
            configs,
            config_count,
            per_config,
            exhaustive,
            started: 0,
            config: None,
            addresses: None,
        }
    }

    /// The number of configurations the stream applies.
    pub fn configs(&self) -> usize {
        self.config_count
    }

    /// The number of vectors the whole stream holds (saturating at `u64::MAX`).
    pub fn len(&self) -> u64 {
        let per = Addresses::new(self.geometry.addr_bits(), self.per_config, self.exhaustive);
        per.count.saturating_mul(self.config_count as u64)
    }

    /// True when the stream holds no vector (never: every stream has a configuration and an
    /// address).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The configuration of the last address drawn.
    ///
    /// # Panics
    /// Before the first [`HashStimulus::next_step`].
    pub fn config(&self) -> &HashConfig {
        self.config
            .as_ref()
            .expect("HashStimulus::config before the first address")
    }

    /// Draws the next vector; `None` when the stream is exhausted.
    pub fn next_step(&mut self) -> Option<Step> {
        if let Some(addr) = self.addresses.as_mut().and_then(|a| a.next(&mut self.rng)) {
            return Some(Step {
                addr,
                new_config: false,
            });
        }
        if self.started == self.config_count {
            return None;
        }
        let index = self.started;
        self.started += 1;
        let config = match &mut self.configs {
            Configs::Fixed(c) => c.clone(),
            Configs::Random { program, .. } if index == 0 && program.is_some() => {
                program.clone().unwrap_or_else(|| unreachable!())
            }
            Configs::Random { kind, .. } => HashConfig::random(*kind, self.geometry, &mut self.rng),
            Configs::Listed(list) => list
                .next()
                .unwrap_or_else(|| unreachable!("{index} of {} listed", self.config_count)),
        };
        self.config = Some(config);
        let mut addresses =
            Addresses::new(self.geometry.addr_bits(), self.per_config, self.exhaustive);
        let addr = addresses.next(&mut self.rng)?;
        self.addresses = Some(addresses);
        Some(Step {
            addr,
            new_config: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HashFunction;

    fn drain(mut s: HashStimulus) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        while let Some(step) = s.next_step() {
            out.push((step.addr, s.config().bank(step.addr)));
        }
        out
    }

    #[test]
    fn fixed_small_is_exhaustive_and_wide_starts_with_corners() {
        let g = Geometry::new(4, 4).unwrap();
        let c = HashConfig::new(g, HashFunction::Modulo).unwrap();
        let s = HashStimulus::fixed(c, &VectorPlan::default());
        assert_eq!(s.len(), 16);
        let v = drain(s);
        assert_eq!(v.len(), 16);
        assert_eq!(v[13], (13, 1));

        let g = Geometry::new(20, 4).unwrap();
        let c = HashConfig::new(g, HashFunction::Modulo).unwrap();
        let plan = VectorPlan {
            seed: 3,
            vectors: 30,
            configs: 1,
        };
        let v = drain(HashStimulus::fixed(c, &plan));
        assert_eq!(v.len(), 30);
        let addrs: Vec<u64> = v.iter().map(|p| p.0).collect();
        assert_eq!(&addrs[..4], &[0, 0xfffff, 1, 2]);
        assert_eq!(addrs[21], 1 << 19);
    }

    #[test]
    fn configurable_applies_the_program_first_then_random_ones() {
        let g = Geometry::new(14, 32).unwrap();
        let program = HashConfig::new(
            g,
            HashFunction::BitvectorXor {
                k1: 2,
                k2: 8,
                mask: 7,
            },
        )
        .unwrap();
        let plan = VectorPlan {
            seed: 1,
            vectors: 40,
            configs: 4,
        };
        let mut s =
            HashStimulus::configurable(HashKind::BitvectorXor, g, Some(program.clone()), &plan);
        assert_eq!((s.configs(), s.len()), (4, 40));
        let mut configs = Vec::new();
        let mut count = 0;
        while let Some(step) = s.next_step() {
            count += 1;
            if step.new_config {
                configs.push(s.config().clone());
            }
        }
        assert_eq!(count, 40);
        assert_eq!(configs.len(), 4);
        assert_eq!(configs[0], program);
        assert_ne!(configs[1], program);
    }

    #[test]
    fn sweep_checks_every_listed_configuration_on_every_address() {
        let g = Geometry::new(6, 4).unwrap();
        let configs: Vec<HashConfig> = (0..=4)
            .map(|k| HashConfig::new(g, HashFunction::BitvectorPerm { k }).unwrap())
            .collect();
        let s = HashStimulus::sweep(configs);
        assert_eq!(s.len(), 5 * 64);
        let v = drain(s);
        // Configuration k = 4, address 0b110000: bank 0b11.
        assert_eq!(v[4 * 64 + 0b110000], (0b110000, 0b11));
    }
}
