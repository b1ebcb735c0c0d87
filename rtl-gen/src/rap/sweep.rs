//! The converters' sweep: RAP, RAS or 3P converters over bank counts `w`, baked or taken at
//! run time, generated and synthesized by the generic engine (`crate::experiments::sweep`,
//! `rtl-gen sweep rap`).

use super::vectors::VectorPlan;
use super::RapDesign;
use crate::block::{self, Block};
use crate::experiments::sweep::{bounded, once, Generated, Point, SweepSpace};
use crate::Error;
use models::rap::LayoutKind;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// The converters a sweep takes (`rtl-gen rap --kind`).
pub const KINDS: [&str; 3] = ["rap", "ras", "3p"];

/// What to sweep: the plan `results.json` and an emitted sweep's `sweep.json` record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
pub struct RapSweep {
    /// Converters: rap, ras, 3p (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "rap", value_parser = clap::builder::PossibleValuesParser::new(KINDS))]
    pub kinds: Vec<String>,
    /// Bank counts w (2 to 1024), the x axis.
    #[arg(long, value_delimiter = ',', default_value = "8,16,32,64")]
    pub banks: Vec<u32>,
    /// Take the tables at run time.
    #[arg(long)]
    pub configurable: bool,
    /// Write the tables a packed 32-bit word at a time (the paper's Fig. 7; implies
    /// --configurable).
    #[arg(long)]
    pub packed: bool,
    /// Register the outputs.
    #[arg(long)]
    pub pipeline: bool,
    /// Seed of the tables.
    #[arg(long, default_value_t = 1)]
    pub rap_seed: u64,
}

impl RapSweep {
    /// Refuses a repeated kind or bank count.
    pub fn checked(self) -> Result<Self, Error> {
        bounded("--kinds x --banks", &[self.kinds.len(), self.banks.len()])?;
        once("--kinds", &self.kinds)?;
        once("--banks", &self.banks)?;
        Ok(self)
    }

    /// `baked`, `loadable` or `packed`, as the manifests name it.
    fn variant(&self) -> &'static str {
        match (self.configurable || self.packed, self.packed) {
            (false, _) => "baked",
            (true, false) => "loadable",
            (true, true) => "packed",
        }
    }
}

impl SweepSpace for RapSweep {
    fn family(&self) -> &'static str {
        "rap"
    }

    fn axes(&self) -> Vec<(&'static str, Vec<Value>)> {
        vec![
            ("kind", self.kinds.iter().map(|k| json!(k)).collect()),
            ("variant", vec![json!(self.variant())]),
            ("banks", self.banks.iter().map(|&w| json!(w)).collect()),
        ]
    }

    /// `<kind>-b<banks>` (`rap-b32`).
    fn point_name(&self, v: &BTreeMap<String, Value>) -> String {
        format!("{}-b{}", v["kind"].as_str().unwrap_or(""), v["banks"])
    }

    fn generate(&self, point: &Point, blocks: &Path) -> Result<Generated, Error> {
        let (kind, w) = (point.text("kind"), point.number("banks") as u32);
        let loadable = self.variant() != "baked";
        let design = match kind {
            "3p" => RapDesign::three_p_from_seed(w, self.rap_seed, loadable, self.pipeline)?,
            _ => {
                let layout = if kind == "ras" {
                    LayoutKind::Ras
                } else {
                    LayoutKind::Rap
                };
                RapDesign::drawn(layout, w, self.rap_seed, false, loadable, self.pipeline)?
            }
        };
        let design = if self.packed {
            design.with_packed()?
        } else {
            design
        };
        let plan = VectorPlan {
            seed: 1,
            vectors: 16,
        };
        let mut command = format!(
            "rtl-gen rap --kind {kind} --banks {w} --rap-seed {}",
            self.rap_seed
        );
        for (flag, given) in [
            ("--configurable", loadable),
            ("--packed", self.packed),
            ("--pipeline", self.pipeline),
        ] {
            if given {
                command.push(' ');
                command.push_str(flag);
            }
        }
        command.push_str(&format!(" --vectors 16 --out {}", blocks.display()));
        let dir = block::write(&design, &plan, &command, blocks)?;
        let top = design.identity().name;
        Ok(Generated::Block { dir, top })
    }

    fn title(&self) -> String {
        format!(
            "{} converters{}",
            self.variant(),
            if self.pipeline { ", registered" } else { "" }
        )
    }
}
