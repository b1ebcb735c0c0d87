//! The configuration sweep: every configuration a configurable hasher's `cfg_i` encodes,
//! checked on every address through the DPI-C fast path ([`super::dpi`]).
//!
//! Per kind, [`models::hash_space::sweep_configs`] lists every legal configuration when the
//! fields encode at most `max_configs` combinations, and otherwise samples them (every value
//! of every field with the others random, then random configurations up to `samples`);
//! the results say which kinds were sampled and how much of their space was covered. Each
//! kind's block is generated into `<out>/blocks/<name>/`, so
//! `rtl-gen cosim <out>/blocks/<name> --fast --sweep --max-configs N --samples S` reproduces it
//! alone.

use crate::block;
use crate::hash::vectors::VectorPlan;
use crate::hash::{dpi, HashDesign};
use crate::manifest::generator;
use crate::Error;
use golden_dpi::HashPlanStimulus;
use models::hash_space::{sweep_configs, SweepCoverage};
use models::{Geometry, HashConfigObject, HashKind};
use serde::Serialize;
use std::path::{Path, PathBuf};
use testbenches::CosimReport;

/// Version of the `results.json` layout.
pub const FORMAT_VERSION: u32 = 1;

/// The seed of the sampled configurations.
pub const SAMPLE_SEED: u64 = 1;

/// The vectors each block's own (file-based) testbench carries: the sweep does not use them.
const FILE_VECTORS: VectorPlan = VectorPlan {
    seed: 1,
    vectors: 16,
    configs: 1,
};

/// What to sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigSweepPlan {
    /// Configurable kinds.
    pub kinds: Vec<HashKind>,
    /// Word-address bits.
    pub addr_bits: u32,
    /// Bank count.
    pub banks: u64,
    /// Sample beyond this many field combinations.
    pub max_configs: usize,
    /// Configurations sampled where sampled.
    pub samples: usize,
    /// DUT instances side by side in the testbench.
    pub instances: usize,
    /// Output folder.
    pub out: PathBuf,
}

/// One kind's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct KindResult {
    /// The kind.
    pub kind: String,
    /// The block folder, relative to the output folder.
    pub block: Option<String>,
    /// What the configurations cover.
    pub coverage: SweepCoverage,
    /// The co-simulation's verdict and times.
    pub report: Option<CosimReport>,
    /// Why the kind could not be checked.
    pub error: Option<String>,
}

/// Everything a configuration sweep writes to `results.json`.
#[derive(Debug, Clone, Serialize)]
pub struct ConfigSweepResults {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Generator name and version.
    pub generator: String,
    /// The command that reproduces the sweep.
    pub command: String,
    /// Word-address bits.
    pub addr_bits: u32,
    /// Bank count.
    pub banks: u64,
    /// The enumeration bound.
    pub max_configs: usize,
    /// The sample size where sampled.
    pub samples: usize,
    /// One entry per kind.
    pub kinds: Vec<KindResult>,
}

/// Sweeps every kind of `plan` in turn (each simulation is one process), calling `done` after
/// each.
pub fn run(
    plan: &ConfigSweepPlan,
    command: &str,
    done: &dyn Fn(&KindResult),
) -> Result<ConfigSweepResults, Error> {
    let geometry = Geometry::new(plan.addr_bits, plan.banks)?;
    crate::output::OutputFolder::open(&plan.out)?;
    let blocks = plan.out.join("blocks");
    let mut kinds = Vec::new();
    for &kind in &plan.kinds {
        let (_, coverage) =
            sweep_configs(kind, geometry, plan.max_configs, plan.samples, SAMPLE_SEED);
        let mut result = KindResult {
            kind: kind.name().into(),
            block: None,
            coverage,
            report: None,
            error: None,
        };
        let outcome = (|| -> Result<CosimReport, Error> {
            let object = HashConfigObject::new(kind, plan.addr_bits, plan.banks);
            let design = HashDesign::new(&object, true, false, false)?;
            let gen = format!(
                "rtl-gen hash --kind {kind} --addr-bits {} --banks {} --configurable --out {}",
                plan.addr_bits,
                plan.banks,
                blocks.display()
            );
            let dir = block::write(&design, &FILE_VECTORS, &gen, &blocks)?;
            result.block = Some(format!("blocks/{}", design.name()));
            let stimulus = HashPlanStimulus::Sweep {
                max_configs: plan.max_configs,
                samples: plan.samples,
                seed: SAMPLE_SEED,
            };
            Ok(dpi::run(&dir, stimulus, plan.instances)?.1)
        })();
        match outcome {
            Ok(report) => result.report = Some(report),
            Err(e) => result.error = Some(e.to_string()),
        }
        done(&result);
        kinds.push(result);
    }
    Ok(ConfigSweepResults {
        format_version: FORMAT_VERSION,
        generator: generator(),
        command: command.into(),
        addr_bits: plan.addr_bits,
        banks: plan.banks,
        max_configs: plan.max_configs,
        samples: plan.samples,
        kinds,
    })
}

/// A Markdown table: per kind the configurations (legal, encoded, checked, how), vectors,
/// verdict and speed.
pub fn to_markdown(results: &ConfigSweepResults) -> String {
    let mut out = String::from(
        "| kind | legal configurations | checked | how | vectors | passed | failed | run (s) | vectors/s |\n\
         |---|---:|---:|---|---:|---:|---:|---:|---:|\n",
    );
    for k in &results.kinds {
        let c = &k.coverage;
        let how = if c.exhaustive {
            "all".to_string()
        } else {
            format!("sampled: {} directed + {} random", c.directed, c.random)
        };
        let (vectors, passed, failed, run, rate) = match &k.report {
            Some(r) => (
                r.vectors.to_string(),
                r.passed.to_string(),
                r.failed.to_string(),
                format!("{:.1}", r.run_seconds),
                format!("{:.2} M", r.vectors as f64 / r.run_seconds.max(1e-9) / 1e6),
            ),
            None => Default::default(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {how} | {vectors} | {passed} | {failed} | {run} | {rate} |\n",
            k.kind, c.legal, c.configs
        ));
        if let Some(e) = &k.error {
            out.push_str(&format!("| {} | error: {e} |||||||\n", k.kind));
        }
    }
    out
}

/// Writes `results.json` and `results.md` into `out`; returns the files written.
pub fn write_outputs(results: &ConfigSweepResults, out: &Path) -> Result<Vec<PathBuf>, Error> {
    let json = out.join("results.json");
    let mut text = serde_json::to_string_pretty(results).unwrap_or_else(|e| unreachable!("{e}"));
    text.push('\n');
    crate::output::write_file(&json, text.as_bytes())?;
    let md = out.join("results.md");
    crate::output::write_file(&md, to_markdown(results).as_bytes())?;
    Ok(vec![json, md])
}
