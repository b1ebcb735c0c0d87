//! The shared memories' sweep: lanes x banks x maps at one depth, generated and synthesized by
//! the generic engine (`crate::experiments::sweep`, `rtl-gen sweep smem`). A map is `modulo`,
//! `rap` (seed 1, baked) or a hash kind with the hashers' sweep configuration
//! (`hash::sweep::fixed_config`).

use super::vectors::SmemPlan;
use super::{MapSpec, SmemDesign};
use crate::block::{self, Block};
use crate::experiments::sweep::{bounded, once, Generated, Point, SweepSpace};
use crate::hash::sweep::fixed_config;
use crate::rap::RapDesign;
use crate::Error;
use models::rap::LayoutKind;
use models::smem::Shape;
use models::{Geometry, HashKind};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// What to sweep: the plan `results.json` and an emitted sweep's `sweep.json` record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
pub struct SmemSweep {
    /// Addresses per warp access (powers of two).
    #[arg(long, value_delimiter = ',', default_value = "32")]
    pub lanes: Vec<u32>,
    /// Bank counts (powers of two), the x axis.
    #[arg(long, value_delimiter = ',', default_value = "8,16,32")]
    pub banks: Vec<u32>,
    /// Maps in front of the banks: modulo, rap, or hash kinds (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "modulo,rap")]
    pub maps: Vec<String>,
    /// Rows per bank.
    #[arg(long, default_value_t = 1024)]
    pub depth: u32,
}

impl SmemSweep {
    /// Refuses a repeated value or a map that is none of `modulo`, `rap` and the hash kinds.
    pub fn checked(self) -> Result<Self, Error> {
        let lists = [self.maps.len(), self.lanes.len(), self.banks.len()];
        bounded("--maps x --lanes x --banks", &lists)?;
        once("--lanes", &self.lanes)?;
        once("--banks", &self.banks)?;
        once("--maps", &self.maps)?;
        if let Some(bad) = self.maps.iter().find(|m| map_spec(m, 4, 4).is_none()) {
            let kinds: Vec<&str> = HashKind::ALL.iter().map(|k| k.name()).collect();
            return Err(Error::BadFlag {
                flag: "--maps",
                value: bad.clone(),
                message: format!("allowed: rap, {}", kinds.join(", ")),
            });
        }
        Ok(self)
    }
}

/// The map `name` in front of `banks` banks at `addr_bits` address bits; `None` for a name
/// that is none ([`SmemSweep::maps`]).
fn map_spec(name: &str, addr_bits: u32, banks: u32) -> Option<Result<MapSpec, Error>> {
    if name == "rap" {
        let rap = RapDesign::drawn(LayoutKind::Rap, banks, 1, false, false, false);
        return Some(rap.map(MapSpec::Rap));
    }
    let kind: HashKind = name.parse().ok()?;
    let config = Geometry::new(addr_bits, u64::from(banks))
        .map(|g| fixed_config(kind, g))
        .map_err(Error::from);
    Some(config.map(|config| MapSpec::Hash {
        config,
        configurable: false,
    }))
}

impl SweepSpace for SmemSweep {
    fn family(&self) -> &'static str {
        "smem"
    }

    fn axes(&self) -> Vec<(&'static str, Vec<Value>)> {
        vec![
            ("map", self.maps.iter().map(|m| json!(m)).collect()),
            ("lanes", self.lanes.iter().map(|&l| json!(l)).collect()),
            ("depth", vec![json!(self.depth)]),
            ("banks", self.banks.iter().map(|&b| json!(b)).collect()),
        ]
    }

    /// `<map>-l<lanes>-b<banks>` (`rap-l32-b32`).
    fn point_name(&self, v: &BTreeMap<String, Value>) -> String {
        let map = v["map"].as_str().unwrap_or("");
        format!("{map}-l{}-b{}", v["lanes"], v["banks"])
    }

    /// A combination the memory refuses (a RAP map on fewer rows than banks x banks words,
    /// more lanes than the shape allows) is skipped with the refusal.
    fn generate(&self, point: &Point, blocks: &Path) -> Result<Generated, Error> {
        let (lanes, banks) = (point.number("lanes") as u32, point.number("banks") as u32);
        let map = point.text("map");
        let design = Shape::new(lanes, banks, self.depth, 4)
            .map_err(Error::from)
            .and_then(|shape| {
                let spec = map_spec(map, shape.addr_bits(), banks)
                    .unwrap_or_else(|| unreachable!("checked: {map}"))?;
                SmemDesign::new(shape, spec, 1, None, 32)
            });
        let design = match design {
            Ok(d) => d,
            Err(e) => return Ok(Generated::Skipped(e.to_string())),
        };
        let command = format!(
            "rtl-gen smem --lanes {lanes} --banks {banks} --depth {} --map {} --vectors 8 \
             --out {} (the map of `rtl-gen sweep smem --maps {map}`)",
            self.depth,
            if map == "rap" || map == "modulo" {
                map
            } else {
                "hash"
            },
            blocks.display()
        );
        let plan = SmemPlan { seed: 1, random: 8 };
        let dir = block::write(&design, &plan, &command, blocks)?;
        let top = design.identity().name;
        Ok(Generated::Block { dir, top })
    }

    fn title(&self) -> String {
        format!("shared memories, {} rows per bank", self.depth)
    }
}
