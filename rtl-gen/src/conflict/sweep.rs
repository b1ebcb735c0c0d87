//! The counters' sweep: lanes x banks x hash kinds at one address width, generated and
//! synthesized by the generic engine (`crate::experiments::sweep`, `rtl-gen sweep conflict`).
//! A kind's map is the hashers' sweep configuration (`hash::sweep::fixed_config`).

use super::vectors::ConflictPlan;
use super::ConflictDesign;
use crate::block::{self, Block};
use crate::experiments::sweep::{bounded, once, Generated, Point, SweepSpace};
use crate::hash::sweep::{config_flags, fixed_config};
use crate::Error;
use models::{Geometry, HashConfigObject, HashKind};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// What to sweep: the plan `results.json` and an emitted sweep's `sweep.json` record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
pub struct ConflictSweep {
    /// Addresses per warp access (powers of two from 2 to 64).
    #[arg(long, value_delimiter = ',', default_value = "4,8")]
    pub lanes: Vec<u32>,
    /// Bank counts (powers of two), the x axis.
    #[arg(long, value_delimiter = ',', default_value = "4,8,16")]
    pub banks: Vec<u64>,
    /// Hash kinds of the map (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "modulo,bitvector-xor")]
    pub kinds: Vec<String>,
    /// Address bits of a lane.
    #[arg(long, default_value_t = 10)]
    pub addr_bits: u32,
}

impl ConflictSweep {
    /// Refuses a repeated value or a kind that is not a hash kind.
    pub fn checked(self) -> Result<Self, Error> {
        let lists = [self.kinds.len(), self.lanes.len(), self.banks.len()];
        bounded("--kinds x --lanes x --banks", &lists)?;
        once("--lanes", &self.lanes)?;
        once("--banks", &self.banks)?;
        once("--kinds", &self.kinds)?;
        if let Some(bad) = self.kinds.iter().find(|k| k.parse::<HashKind>().is_err()) {
            let kinds: Vec<&str> = HashKind::ALL.iter().map(|k| k.name()).collect();
            return Err(Error::BadFlag {
                flag: "--kinds",
                value: bad.clone(),
                message: format!("allowed: {}", kinds.join(", ")),
            });
        }
        Ok(self)
    }
}

impl SweepSpace for ConflictSweep {
    fn family(&self) -> &'static str {
        "conflict"
    }

    fn axes(&self) -> Vec<(&'static str, Vec<Value>)> {
        vec![
            ("kind", self.kinds.iter().map(|k| json!(k)).collect()),
            ("lanes", self.lanes.iter().map(|&l| json!(l)).collect()),
            ("addr_bits", vec![json!(self.addr_bits)]),
            ("banks", self.banks.iter().map(|&b| json!(b)).collect()),
        ]
    }

    /// `<kind>-l<lanes>-b<banks>` (`modulo-l32-b32`).
    fn point_name(&self, v: &BTreeMap<String, Value>) -> String {
        let kind = v["kind"].as_str().unwrap_or("");
        format!("{kind}-l{}-b{}", v["lanes"], v["banks"])
    }

    /// A combination the counter refuses (lanes out of range, more banks than addresses) is
    /// skipped with the refusal.
    fn generate(&self, point: &Point, blocks: &Path) -> Result<Generated, Error> {
        let (lanes, banks) = (point.number("lanes") as u32, point.number("banks"));
        let kind: HashKind = point
            .text("kind")
            .parse()
            .unwrap_or_else(|_| unreachable!("checked"));
        let design = Geometry::new(self.addr_bits, banks)
            .map_err(Error::from)
            .and_then(|g| {
                let config = HashConfigObject::from_config(&fixed_config(kind, g));
                ConflictDesign::new(lanes, &config)
            });
        let design = match design {
            Ok(d) => d,
            Err(e) => return Ok(Generated::Skipped(e.to_string())),
        };
        let command = format!(
            "rtl-gen conflict --lanes {lanes} {} --vectors 8 --out {}",
            config_flags(&HashConfigObject::from_config(design.config()), true),
            blocks.display()
        );
        let plan = ConflictPlan { seed: 1, random: 8 };
        let dir = block::write(&design, &plan, &command, blocks)?;
        let top = design.identity().name;
        Ok(Generated::Block { dir, top })
    }

    fn title(&self) -> String {
        format!("bank-conflict counters, {} address bits", self.addr_bits)
    }
}
