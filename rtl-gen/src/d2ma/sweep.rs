//! The D²MA units' sweep: one unit over CTAs x buffers x storage styles, generated and
//! synthesized by the generic engine (`crate::experiments::sweep`, `rtl-gen sweep d2ma`).

use super::vectors::D2maPlan;
use super::{D2maDesign, Storage, Unit};
use crate::block::{self, Block};
use crate::experiments::sweep::{bounded, once, Generated, Point, SweepSpace};
use crate::Error;
use clap::ValueEnum;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// What to sweep: the plan `results.json` and an emitted sweep's `sweep.json` record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
pub struct D2maSweep {
    /// The unit: agen, controller, raw-check or engine.
    #[arg(long, default_value = "engine")]
    pub unit: String,
    /// Resident CTAs (1 to 32), the x axis.
    #[arg(long, value_delimiter = ',', default_value = "2,4,8")]
    pub ctas: Vec<u32>,
    /// Buffers per CTA (1 to 8).
    #[arg(long, value_delimiter = ',', default_value = "4")]
    pub buffers: Vec<u32>,
    /// Storage styles of the table: flip-flop, clock-gated, latch (controller and engine).
    #[arg(long, value_delimiter = ',', default_value = "flip-flop")]
    pub storage: Vec<String>,
    /// Global memory segment size in bytes: 32, 64 or 128.
    #[arg(long, default_value_t = 128)]
    pub segment_bytes: u32,
}

/// `name` as a value of `T`, or the refusal naming `flag` and the allowed values.
fn parse<T: ValueEnum>(flag: &'static str, name: &str) -> Result<T, Error> {
    T::from_str(name, false).map_err(|_| Error::BadFlag {
        flag,
        value: name.into(),
        message: format!(
            "allowed: {}",
            T::value_variants()
                .iter()
                .filter_map(|v| v.to_possible_value())
                .map(|v| v.get_name().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

impl D2maSweep {
    /// Refuses a repeated value, an unknown unit or style, and styles for a unit without a
    /// table (the AGEN, the RAW check).
    pub fn checked(self) -> Result<Self, Error> {
        let lists = [self.storage.len(), self.buffers.len(), self.ctas.len()];
        bounded("--storage x --buffers x --ctas", &lists)?;
        once("--ctas", &self.ctas)?;
        once("--buffers", &self.buffers)?;
        once("--storage", &self.storage)?;
        let unit: Unit = parse("--unit", &self.unit)?;
        for s in &self.storage {
            let style: Storage = parse("--storage", s)?;
            if style != Storage::FlipFlop && matches!(unit, Unit::Agen | Unit::RawCheck) {
                return Err(Error::BadFlag {
                    flag: "--storage",
                    value: s.clone(),
                    message: "the storage style applies to the controller and engine only".into(),
                });
            }
        }
        Ok(self)
    }
}

impl SweepSpace for D2maSweep {
    fn family(&self) -> &'static str {
        "d2ma"
    }

    fn axes(&self) -> Vec<(&'static str, Vec<Value>)> {
        vec![
            ("unit", vec![json!(self.unit)]),
            ("storage", self.storage.iter().map(|s| json!(s)).collect()),
            ("buffers", self.buffers.iter().map(|&b| json!(b)).collect()),
            ("ctas", self.ctas.iter().map(|&c| json!(c)).collect()),
        ]
    }

    /// `<unit>-<storage>-b<buffers>-c<ctas>` (`engine-latch-b4-c8`).
    fn point_name(&self, v: &BTreeMap<String, Value>) -> String {
        let text = |k: &str| v[k].as_str().unwrap_or("").to_string();
        format!(
            "{}-{}-b{}-c{}",
            text("unit"),
            text("storage"),
            v["buffers"],
            v["ctas"]
        )
    }

    fn generate(&self, point: &Point, blocks: &Path) -> Result<Generated, Error> {
        let unit: Unit = parse("--unit", &self.unit)?;
        let storage: Storage = parse("--storage", point.text("storage"))?;
        let (ctas, buffers) = (point.number("ctas") as u32, point.number("buffers") as u32);
        let design = D2maDesign::new(unit, ctas, buffers, self.segment_bytes)?
            .with_global_bits(64)?
            .with_storage(storage);
        let plan = D2maPlan {
            seed: 1,
            random: 4,
            transfers: Vec::new(),
        };
        let command = format!(
            "rtl-gen d2ma {} --ctas {ctas} --buffers {buffers} --segment-bytes {} --storage {} \
             --vectors 4 --out {}",
            self.unit,
            self.segment_bytes,
            storage.name(),
            blocks.display()
        );
        let dir = block::write(&design, &plan, &command, blocks)?;
        let top = design.identity().name;
        Ok(Generated::Block { dir, top })
    }

    fn x_axis(&self) -> &'static str {
        "ctas"
    }

    fn title(&self) -> String {
        format!("D2MA {}, {}-byte segments", self.unit, self.segment_bytes)
    }
}
