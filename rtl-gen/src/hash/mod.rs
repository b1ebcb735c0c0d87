//! Bank hashers: a validated design ([`HashDesign`]), its Verilog module, and the test vectors
//! its golden model produces.
//!
//! Ports: `addr_i[n-1:0]`, `bank_o[m-1:0]`; configurable hashers add `cfg_i` (see
//! [`cfg_layout`]); pipelined ones add `clk_i`, `rst_ni` and one output register.

pub mod block;
pub mod cfg_layout;
pub mod logic;
pub mod vectors;

use crate::Error;
pub use cfg_layout::{CfgField, CfgLayout};
use models::{Geometry, HashConfig, HashConfigObject, HashKind};

/// Fixed (configuration baked in) or configurable (configuration on `cfg_i`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Variant {
    /// Wires and XOR gates only.
    Fixed(HashConfig),
    /// Programmed at run time through `cfg_i`; `program` is an optional configuration whose
    /// `cfg_i` value the manifest records.
    Configurable {
        /// The field layout of `cfg_i`.
        layout: CfgLayout,
        /// A configuration given with the request, if any.
        program: Option<HashConfig>,
    },
}

/// A bank hasher to generate: family, shape, variant and pipelining, all validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashDesign {
    /// The hash family.
    pub kind: HashKind,
    /// The memory shape.
    pub geometry: Geometry,
    /// Fixed or configurable.
    pub variant: Variant,
    /// Whether one output register is added.
    pub pipeline: bool,
}

impl HashDesign {
    /// Validates a request: a configuration object, the variant and pipelining flags, and
    /// whether a rank-deficient hash (some banks unreachable) is allowed.
    pub fn new(
        object: &HashConfigObject,
        configurable: bool,
        pipeline: bool,
        allow_rank_deficient: bool,
    ) -> Result<Self, Error> {
        let (geometry, config) = object.validate()?;
        let kind = object.kind;
        if let (Some(config), false) = (&config, allow_rank_deficient) {
            config.check_full_rank().map_err(Error::RankDeficient)?;
        }
        let variant = if configurable {
            let layout =
                CfgLayout::for_kind(kind, geometry).ok_or(Error::NothingToConfigure(kind))?;
            Variant::Configurable {
                layout,
                program: config,
            }
        } else {
            Variant::Fixed(config.ok_or(Error::MissingConfiguration(kind))?)
        };
        Ok(Self {
            kind,
            geometry,
            variant,
            pipeline,
        })
    }

    /// The module name: `hash_<kind tag>_n<addr bits>_b<banks>`, then `_cfg` for configurable
    /// and `_pipe` for pipelined hashers (`hash_bvxor_n14_b32_cfg_pipe`).
    pub fn name(&self) -> String {
        let mut name = format!(
            "hash_{}_n{}_b{}",
            self.kind.tag(),
            self.geometry.addr_bits(),
            self.geometry.banks()
        );
        if matches!(self.variant, Variant::Configurable { .. }) {
            name.push_str("_cfg");
        }
        if self.pipeline {
            name.push_str("_pipe");
        }
        name
    }

    /// Output latency in clock cycles (0 for combinational hashers).
    pub fn latency(&self) -> u32 {
        u32::from(self.pipeline)
    }

    /// The configuration object to record in the manifest (and feed back with `--config`).
    pub fn configuration(&self) -> HashConfigObject {
        let config = match &self.variant {
            Variant::Fixed(c) => Some(c),
            Variant::Configurable { program, .. } => program.as_ref(),
        };
        config.map_or_else(
            || HashConfigObject::new(self.kind, self.geometry.addr_bits(), self.geometry.banks()),
            HashConfigObject::from_config,
        )
    }

    /// The `cfg_i` layout of a configurable hasher.
    pub fn cfg_layout(&self) -> Option<&CfgLayout> {
        match &self.variant {
            Variant::Fixed(_) => None,
            Variant::Configurable { layout, .. } => Some(layout),
        }
    }

    /// The Verilog module, with `header` as its leading comment lines.
    pub fn module(&self, header: Vec<String>) -> crate::rtl::Module {
        logic::build(self, header)
    }
}
