//! The bank-conflict counter: given one warp access (a valid bit and an address per lane) and
//! a bank map (any hasher, fixed), the bank cycles the access takes in a banked shared memory,
//! combinationally: the largest number of distinct addresses that fall into one bank (lanes
//! with the same address are served by one broadcast). The golden model is the DMM congestion
//! of the RAP paper, `models::congestion::congestion`.
//!
//! - [`logic`]: the module (one hasher instance a lane, the repeats, a count per bank and
//!   their maximum);
//! - [`vectors`]: directed and random accesses, expected values from the model;
//! - [`reference`]: its referee for `rtl-gen prove` and `rtl-gen mutate`;
//! - [`sweep`]: its sweep space for `rtl-gen sweep conflict`.
//!
//! The family follows docs/DEVELOPING.md's steps; its command is `rtl-gen conflict`.

pub mod logic;
pub mod reference;
pub mod sweep;
pub mod vectors;

use crate::block::{Block, Header, Identity, Stimulus};
use crate::hash::{HashDesign, Variant};
use crate::rtl::Module;
use crate::Error;
use models::{HashConfig, HashConfigObject};
use std::collections::BTreeMap;
use testbenches::Timing;
use vectors::ConflictPlan;

/// The most lanes an access has (`--lanes`).
pub const MAX_LANES: u32 = 64;

/// A validated counter: `lanes` addresses an access, banks from a fixed hasher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConflictDesign {
    lanes: u32,
    hash: HashDesign,
}

impl ConflictDesign {
    /// A counter for `lanes` lanes (a power of two from 2 to [`MAX_LANES`]) in front of the
    /// fixed hasher of `config` (its address bits and bank count are the memory's).
    pub fn new(lanes: u32, config: &HashConfigObject) -> Result<Self, Error> {
        if !lanes.is_power_of_two() || !(2..=MAX_LANES).contains(&lanes) {
            return Err(Error::BadFlag {
                flag: "--lanes",
                value: lanes.to_string(),
                message: format!("allowed a power of two from 2 to {MAX_LANES}"),
            });
        }
        let hash = HashDesign::new(config, false, false, false)?;
        Ok(Self { lanes, hash })
    }

    /// The main job's counter (`rtl-gen flow`): a half-warp of 16 lanes in front of the XOR
    /// paper's Fig. 5 hasher (14 address bits, 32 banks). (A full warp of 32 lanes takes
    /// Yosys' generic flow several CPU minutes; 16 lanes about two.)
    pub fn main_job() -> Self {
        let config = HashConfigObject::from_json(crate::hash::flow::FERMI_CONFIGS[2])
            .unwrap_or_else(|e| unreachable!("{e}"));
        Self::new(16, &config).unwrap_or_else(|e| unreachable!("the flow's counter: {e}"))
    }

    /// Addresses per access.
    pub fn lanes(&self) -> u32 {
        self.lanes
    }

    /// The hasher in front of the banks.
    pub fn hash(&self) -> &HashDesign {
        &self.hash
    }

    /// The map's configuration.
    pub fn config(&self) -> &HashConfig {
        match &self.hash.variant {
            Variant::Fixed(config) => config,
            Variant::Configurable { .. } => unreachable!("the counter's hasher is fixed"),
        }
    }

    /// Bits of the count: every value from 0 (no valid lane) to `lanes`.
    pub fn count_bits(&self) -> u32 {
        crate::rtl::ir::bits_for(u64::from(self.lanes) + 1)
    }

    /// `conflict_l<lanes>_<the hasher's name without hash_>` (`conflict_l32_bvxor_n14_b32`).
    pub fn name(&self) -> String {
        let hasher = self.hash.name();
        let map = hasher.strip_prefix("hash_").unwrap_or(&hasher);
        format!("conflict_l{}_{map}", self.lanes)
    }
}

impl Block for ConflictDesign {
    type Plan = ConflictPlan;

    fn identity(&self) -> Identity {
        Identity::new(self.name(), "conflict", self.hash.kind.name(), "fixed")
    }

    fn summary(&self) -> String {
        format!(
            "bank-conflict counter, {} lanes, {} banks by {}, {} address bits",
            self.lanes,
            self.hash.geometry.banks(),
            self.hash.kind,
            self.hash.geometry.addr_bits()
        )
    }

    fn about(&self) -> Vec<String> {
        vec![
            "Bank-conflict counter: the bank cycles of one warp access (distinct addresses in \
             the fullest bank; equal addresses broadcast)."
                .into(),
            format!("Configuration: {}", self.configuration()),
        ]
    }

    fn parameters(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("LANES".to_string(), u64::from(self.lanes)),
            (
                "ADDR_BITS".to_string(),
                u64::from(self.hash.geometry.addr_bits()),
            ),
            ("BANKS".to_string(), self.hash.geometry.banks()),
            ("COUNT_BITS".to_string(), u64::from(self.count_bits())),
        ])
    }

    fn configuration(&self) -> serde_json::Value {
        serde_json::json!({
            "lanes": self.lanes,
            "map": HashConfigObject::from_config(self.config()),
        })
    }

    fn parts(&self) -> Vec<Identity> {
        vec![self.hash.identity()]
    }

    fn timing(&self) -> Timing {
        Timing::Combinational
    }

    fn modules(&self, header: &Header) -> Vec<Module> {
        let mut hasher = self.hash.modules(header);
        let top = logic::build(self, &hasher[0], header.of(self));
        hasher.insert(0, top);
        hasher
    }

    fn stimulus(&self, plan: &ConflictPlan) -> Stimulus {
        let (vectors, coverage) = vectors::vectors(self, plan);
        Stimulus {
            vectors,
            seed: plan.seed,
            coverage,
        }
    }
}
