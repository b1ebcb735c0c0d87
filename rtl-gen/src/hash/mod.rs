//! Bank hashers: a validated design ([`HashDesign`]), the family's [`Block`] (its Verilog
//! module, header, manifest entries and the test vectors its golden model produces).
//!
//! Ports: `addr_i[n-1:0]`, `bank_o[m-1:0]`; configurable hashers add `cfg_i` (see
//! [`cfg_layout`]); pipelined ones add `clk_i`, `rst_ni` and one output register.
//!
//! The family's parts in the shared experiments: [`sweep`] (its sweep space: every kind at
//! every address width and bank count) and [`reference`] (its referee for `prove` and
//! `mutate`). Its own experiments: [`structures`] (each configurable hasher built every way that could
//! decide its depth), [`target_sweep`] (area against the delay target, the XOR paper's Fig. 4b),
//! [`flow`] (the paper's 32-bank hashers generated, co-simulated and synthesized) and
//! [`search_report`] (what `rtl-gen search` writes).

pub mod cfg_layout;
pub mod config_file;
pub mod config_sweep;
pub mod dpi;
pub mod flow;
pub mod logic;
pub mod mux_tree;
pub mod reference;
pub mod search;
pub mod search_report;
pub mod structures;
pub mod sweep;
pub mod target_sweep;
pub mod vectors;

use crate::block::{Block, Header, Identity, PortFields, Stimulus};
use crate::manifest::ManifestField;
use crate::rtl::Module;
use crate::Error;
pub use cfg_layout::{CfgField, CfgLayout};
use logic::{OffsetSelect, Structure};
use models::{Geometry, HashConfig, HashConfigObject, HashKind};
use std::collections::BTreeMap;
use testbenches::Timing;
use vectors::{VectorPlan, EXHAUSTIVE_MAX_ADDR_BITS};

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
    /// How a configurable bit-vector hasher selects its offsets ([`Structure::DEFAULT`]'s
    /// unless [`HashDesign::with_offsets`] chose another).
    pub offsets: OffsetSelect,
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
            offsets: Structure::DEFAULT.offset,
        })
    }

    /// The design with its offsets selected by `offsets`; `None` where the choice does not
    /// apply (fixed hashers and the kinds without offsets), unless it is the default.
    pub fn with_offsets(self, offsets: OffsetSelect) -> Option<Self> {
        let applies = matches!(self.variant, Variant::Configurable { .. })
            && matches!(self.kind, HashKind::BitvectorPerm | HashKind::BitvectorXor);
        (applies || offsets == Structure::DEFAULT.offset).then_some(Self { offsets, ..self })
    }

    /// The module name: `hash_<kind tag>_n<addr bits>_b<banks>`, then `_cfg` for configurable
    /// hashers, the offsets' name for offsets other than the default (`_onehot`), and `_pipe`
    /// for pipelined hashers (`hash_bvxor_n14_b32_cfg_pipe`, `hash_bvxor_n14_b32_cfg_onehot`).
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
        if self.offsets != Structure::DEFAULT.offset {
            name.push('_');
            name.push_str(&self.offsets.name().replace('-', ""));
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

    /// `fixed` or `configurable`.
    fn variant_name(&self) -> &'static str {
        match self.variant {
            Variant::Fixed(_) => "fixed",
            Variant::Configurable { .. } => "configurable",
        }
    }
}

impl Block for HashDesign {
    type Plan = VectorPlan;

    fn identity(&self) -> Identity {
        Identity::new(self.name(), "hash", self.kind.name(), self.variant_name())
    }

    fn summary(&self) -> String {
        format!(
            "{} {} hasher, {} address bits, {} banks{}{}",
            self.variant_name(),
            self.kind,
            self.geometry.addr_bits(),
            self.geometry.banks(),
            if self.offsets == Structure::DEFAULT.offset {
                String::new()
            } else {
                format!(", {} offsets", self.offsets.name())
            },
            if self.pipeline {
                ", registered output"
            } else {
                ""
            }
        )
    }

    fn about(&self) -> Vec<String> {
        let configuration =
            serde_json::to_string(&self.configuration()).unwrap_or_else(|e| unreachable!("{e}"));
        let mut about = vec![
            format!(
                "Bank hasher: kind {}, {}, {}.",
                self.kind,
                self.variant_name(),
                if self.pipeline {
                    "one output register"
                } else {
                    "combinational"
                }
            ),
            format!("Configuration: {configuration}"),
        ];
        if self.offsets != Structure::DEFAULT.offset {
            about.push(format!(
                "Structure: {} offsets (--offsets {}).",
                self.offsets.name(),
                self.offsets.name()
            ));
        }
        about
    }

    fn parameters(&self) -> BTreeMap<String, u64> {
        let mut parameters = BTreeMap::from([
            (
                "ADDR_BITS".to_string(),
                u64::from(self.geometry.addr_bits()),
            ),
            (
                "BANK_BITS".to_string(),
                u64::from(self.geometry.bank_bits()),
            ),
            ("BANKS".to_string(), self.geometry.banks()),
            ("LATENCY".to_string(), u64::from(self.latency())),
        ]);
        if let Some(layout) = self.cfg_layout() {
            parameters.insert("CFG_WIDTH".into(), u64::from(layout.width()));
        }
        parameters
    }

    fn configuration(&self) -> serde_json::Value {
        serde_json::to_value(HashDesign::configuration(self))
            .unwrap_or_else(|e| unreachable!("{e}"))
    }

    fn fields(&self) -> Vec<PortFields> {
        let Variant::Configurable { layout, program } = &self.variant else {
            return Vec::new();
        };
        vec![PortFields {
            port: "cfg_i".into(),
            fields: layout
                .fields
                .iter()
                .map(|f| ManifestField {
                    name: f.name.clone(),
                    lsb: f.lsb,
                    width: f.width,
                    description: f.description.clone(),
                })
                .collect(),
            program: program.as_ref().map(|p| layout.encode(p)),
        }]
    }

    fn structure(&self) -> BTreeMap<String, String> {
        (self.offsets != Structure::DEFAULT.offset)
            .then(|| ("offsets".to_string(), self.offsets.name().to_string()))
            .into_iter()
            .collect()
    }

    fn timing(&self) -> Timing {
        if self.pipeline {
            Timing::Pipelined {
                latency: self.latency(),
            }
        } else {
            Timing::Combinational
        }
    }

    /// A configurable hasher's `cfg_i` is written once per kernel and held while the memory
    /// runs (docs/HASH.md): its paths do not limit the clock.
    fn static_inputs(&self) -> Vec<&'static str> {
        match self.variant {
            Variant::Configurable { .. } => vec!["cfg_i"],
            Variant::Fixed(_) => Vec::new(),
        }
    }

    fn modules(&self, header: &Header) -> Vec<Module> {
        vec![logic::build(self, header.of(self))]
    }

    fn stimulus(&self, plan: &VectorPlan) -> Stimulus {
        let vectors = vectors::vectors(self, plan);
        let n = self.geometry.addr_bits();
        let coverage = match &self.variant {
            Variant::Fixed(_) if n <= EXHAUSTIVE_MAX_ADDR_BITS => {
                format!("exhaustive: all {} addresses", vectors.len())
            }
            Variant::Fixed(_) => format!(
                "corner cases (0, all ones, one-hot) then random addresses, {} in all",
                vectors.len()
            ),
            Variant::Configurable { program, .. } => {
                let (configs, per_config) = vectors::configurable_split(n, plan);
                format!(
                    "{configs} configurations ({}random valid ones), {per_config} addresses each",
                    if program.is_some() {
                        "the given one first, then "
                    } else {
                        ""
                    },
                )
            }
        };
        Stimulus {
            vectors,
            seed: plan.seed,
            coverage,
        }
    }
}
