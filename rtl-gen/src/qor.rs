//! Synthesis of a generated block folder: reads the block's manifest, runs the `synth` crate's
//! Yosys flow on its RTL and writes `synth.json` beside the manifest.
//!
//! `synth.json` ([`BlockSynth`]) names everything needed to trust and reproduce its numbers:
//! the generator, the `rtl-gen` command that produced it, the Yosys version (ABC is Yosys'
//! built-in copy), the liberty library and file, and the Yosys command that reruns the flow in
//! the work folder `<block>/synth/`.
//!
//! A configurable hasher's `cfg_i` is written once per kernel and held while the memory runs,
//! so its paths do not limit the clock: the report gives the address-to-bank delay (paths from
//! `addr_i` alone, `cfg_i` a false path) apart from the configuration-to-bank delay
//! ([`HasherPaths`]), and the timing-driven flow (a delay target) maps the logic only `cfg_i`
//! reaches for area, outside the target. This timing exception costs no flip-flop.

use crate::manifest::{generator, Manifest, ManifestTiming};
use crate::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// How the configuration's paths are kept out of a hasher's address path.
pub const CONFIG_EXCEPTION: &str = "timing exception: cfg_i is static while the memory runs, so \
paths from it are false paths for the address path (and, with a delay target, the logic only \
cfg_i reaches is mapped for area outside the target); no flip-flops";

/// A hasher's two kinds of path, from [`synth::SynthReport::paths`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HasherPaths {
    /// The slowest path from `addr_i` to `bank_o` (or to the output register), in ps: what
    /// sits in front of the banks every cycle.
    pub address_to_bank_ps: f64,
    /// The slowest path from `cfg_i`, in ps; `None` for a fixed hasher, which has none.
    pub config_to_bank_ps: Option<f64>,
    /// How the configuration is kept off the address path ([`CONFIG_EXCEPTION`]); `None` for
    /// a fixed hasher.
    pub config_exception: Option<String>,
    /// Flip-flops that exception costs: 0 (no configuration register is added).
    pub config_flops: u64,
}

impl HasherPaths {
    /// The two delays of a hasher's report (`None` outside liberty mode, or for a block that
    /// is not a hasher).
    pub fn of(block: &str, report: &synth::SynthReport) -> Option<HasherPaths> {
        if block != "hash" {
            return None;
        }
        let address = report.path_from("addr_i")?;
        let config = report.path_from("cfg_i").map(|p| p.delay_ps);
        Some(HasherPaths {
            address_to_bank_ps: address.delay_ps,
            config_to_bank_ps: config,
            config_exception: config.map(|_| CONFIG_EXCEPTION.to_string()),
            config_flops: 0,
        })
    }
}

/// Version of the [`BlockSynth`] layout; bumped when a field changes meaning. Version 2 names
/// the block's `family` and records its `timing` (was `pipeline`).
pub const FORMAT_VERSION: u32 = 2;
/// The report file written into the block folder.
pub const SYNTH_JSON: &str = "synth.json";
/// The work folder (scripts, logs, Yosys reports, mapped netlist) inside the block folder.
pub const SYNTH_DIR: &str = "synth";

/// What `rtl-gen synth` writes to `<block>/synth.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockSynth {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The generator name and version that ran the synthesis.
    pub generator: String,
    /// The `rtl-gen` command that reproduces this file.
    pub command: String,
    /// The block's top module.
    pub top: String,
    /// The block's family (`hash`, `rap`, `d2ma`).
    pub family: String,
    /// The block's kind (`bitvector-xor`).
    pub kind: String,
    /// The block's variant label, as in its manifest (`configurable`).
    pub variant: String,
    /// What the block is, as in its manifest.
    pub summary: String,
    /// The block's timing, clock and reset, as in its manifest.
    pub timing: ManifestTiming,
    /// The block's derived parameters, as in its manifest.
    pub parameters: BTreeMap<String, u64>,
    /// The numbers, with the Yosys version, liberty file and Yosys command.
    pub report: synth::SynthReport,
    /// A hasher in liberty mode: its address-to-bank and configuration-to-bank delays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hasher_paths: Option<HasherPaths>,
}

impl BlockSynth {
    /// Pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_else(|e| unreachable!("{e}"));
        s.push('\n');
        s
    }

    /// The lines printed under the table: the flow, the delay of each path group (the
    /// address and configuration paths of a hasher by name), tools, library and the
    /// reproducing commands.
    pub fn provenance(&self) -> Vec<String> {
        let r = &self.report;
        let mut lines = Vec::new();
        if let Some(t) = r.target_ps {
            lines.push(format!(
                "flow: timing-driven, target {t} ps (ABC map -D, buffer, upsize, dnsize){}",
                if r.static_inputs.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; static inputs {} mapped for area",
                        r.static_inputs.join(", ")
                    )
                }
            ));
        }
        for t in &r.closure {
            lines.push(format!(
                "closure: {} (ABC {} dc2, map -D {}): {:.1} um2, {:.1} ps{}",
                t.variant,
                if t.dc2 { "with" } else { "without" },
                t.abc_target_ps,
                t.area_um2,
                t.delay_ps,
                if t.kept { ", kept" } else { "" }
            ));
        }
        for p in &r.paths {
            let what = match (self.hasher_paths.is_some(), p.from.as_str()) {
                (true, "addr_i") => "address path".to_string(),
                (true, "cfg_i") => {
                    "configuration path (static: false path, 0 flip-flops)".to_string()
                }
                _ => format!("paths from {}", p.from),
            };
            lines.push(format!(
                "{what}: {:.1} ps, {} cells ({} -> {})",
                p.delay_ps, p.cells, p.start, p.end
            ));
        }
        lines.extend([
            format!(
                "tools: {} (its built-in ABC maps and times), {}",
                r.yosys_version, self.generator
            ),
            format!(
                "library: {}",
                r.liberty.as_deref().unwrap_or(
                    "none (generic flow: Yosys gates, `stat -tech cmos` transistors, `ltp` depth)"
                )
            ),
            format!("reproduce: {}", self.command),
            format!("rerun Yosys alone: {}", r.command),
        ]);
        lines
    }
}

/// Synthesizes the block in `dir` (generic flow without `liberty`), with work files in
/// `<dir>/synth/`, and writes `<dir>/synth.json`. `command` is the `rtl-gen` command line
/// recorded as the way to reproduce it.
pub fn synthesize_block(
    dir: &Path,
    liberty: Option<&Path>,
    command: &str,
) -> Result<BlockSynth, Error> {
    synthesize_block_for(dir, liberty, None, false, command)
}

/// The input ports of a block that hold still while it runs: a hasher's `cfg_i`.
fn static_inputs(manifest: &Manifest) -> Vec<String> {
    let configurable_hasher = manifest.family == "hash" && manifest.fields.contains_key("cfg_i");
    if configurable_hasher {
        vec!["cfg_i".to_string()]
    } else {
        Vec::new()
    }
}

/// [`synthesize_block`] with a delay target in ps (the timing-driven flow; needs `liberty`),
/// and with `closure` the best of several mappings for it ([`synth::closure`]).
pub fn synthesize_block_for(
    dir: &Path,
    liberty: Option<&Path>,
    target_ps: Option<f64>,
    closure: bool,
    command: &str,
) -> Result<BlockSynth, Error> {
    let (manifest, _) = Manifest::load(dir)?;
    if let Some(lib) = liberty {
        synth::check_liberty(lib)?;
    }
    crate::output::OutputFolder::check(&dir.join(SYNTH_DIR))?;
    crate::output::OutputFolder::check_files([dir.join(SYNTH_JSON).as_path()])?;
    let request = synth::SynthRequest {
        files: manifest.rtl_files.iter().map(|f| dir.join(f)).collect(),
        top: manifest.top.clone(),
        liberty: liberty.map(Path::to_path_buf),
        work_dir: dir.join(SYNTH_DIR),
    };
    let timing = synth::Timing {
        target_ps,
        static_inputs: static_inputs(&manifest),
        closure,
    };
    let report = synth::synthesize_with(&request, &timing)?;
    let result = BlockSynth {
        hasher_paths: HasherPaths::of(&manifest.family, &report),
        format_version: FORMAT_VERSION,
        generator: generator(),
        command: command.to_string(),
        top: manifest.top,
        family: manifest.family,
        kind: manifest.kind,
        variant: manifest.variant,
        summary: manifest.summary,
        timing: manifest.timing,
        parameters: manifest.parameters,
        report,
    };
    let path = dir.join(SYNTH_JSON);
    crate::output::write_file(&path, result.to_json().as_bytes())?;
    Ok(result)
}
