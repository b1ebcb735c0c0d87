//! Synthesis of a generated block folder: reads the block's manifest, runs the `synth` crate's
//! Yosys flow on its RTL and writes `synth.json` beside the manifest.
//!
//! `synth.json` ([`BlockSynth`]) names everything needed to trust and reproduce its numbers:
//! the generator, the `rtl-gen` command that produced it, the Yosys version (ABC is Yosys'
//! built-in copy), the liberty library and file, and the Yosys command that reruns the flow in
//! the work folder `<block>/synth/`.
//!
//! In liberty mode OpenSTA times the mapped netlist against constraints written from the
//! manifest ([`synth::sdc`]): the clock on the block's clock port (a virtual clock for a
//! combinational block) at `--clock-ps`, else `--target-ps`, else 1 000 ps.
//!
//! A block's static inputs (its manifest's `timing.static_inputs`, from the Block contract: a
//! configurable hasher's `cfg_i`, written once per kernel and held while the memory runs) do
//! not limit the clock: each is a false path (`set_false_path -from cfg_i`), the report gives
//! the other inputs' worst path (a hasher's address-to-bank delay) apart from the static
//! inputs' ([`HasherPaths`]), and the timing-driven flow (a delay target) maps the logic only
//! static inputs reach for area, outside the target. This timing exception costs no flip-flop.

use crate::manifest::{generator, Manifest, ManifestTiming};
use crate::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use synth::WireLoad;

/// How the configuration's paths are kept out of a hasher's address path.
pub const CONFIG_EXCEPTION: &str = "timing exception: cfg_i is static while the memory runs, so \
paths from it are false paths for the address path (and, with a delay target, the logic only \
cfg_i reaches is mapped for area outside the target); no flip-flops";

/// The two kinds of path of a block with static inputs (a configurable hasher: its address
/// and configuration paths), from OpenSTA's groups ([`synth::StaReport::groups`]);
/// `hasher_paths` in `synth.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HasherPaths {
    /// The slowest path from an input that is not static (a hasher's `addr_i`) to an output
    /// (or to the output register), in ps, as OpenSTA times it (its wires as
    /// [`synth::StaReport::wire_load`] says): what sits in front of the banks every cycle.
    pub address_to_bank_ps: f64,
    /// The slowest path from a static input (a hasher's `cfg_i`; its false path lifted), in ps.
    pub config_to_bank_ps: Option<f64>,
    /// How the static inputs are kept off the other paths ([`CONFIG_EXCEPTION`]).
    pub config_exception: Option<String>,
    /// Flip-flops that exception costs: 0 (no configuration register is added).
    pub config_flops: u64,
}

impl HasherPaths {
    /// The two delays of a report of a block with `static_inputs` (`None` outside liberty
    /// mode, or for a block without static inputs).
    pub fn of(static_inputs: &[String], report: &synth::SynthReport) -> Option<HasherPaths> {
        if static_inputs.is_empty() {
            return None;
        }
        let groups = &report.sta.as_ref()?.groups;
        let slowest = |from_static: bool| {
            groups
                .iter()
                .filter(|p| static_inputs.contains(&p.from) == from_static)
                .map(|p| p.delay_ps)
                .reduce(f64::max)
        };
        let address = slowest(false)?;
        let config = slowest(true);
        Some(HasherPaths {
            address_to_bank_ps: address,
            config_to_bank_ps: config,
            config_exception: config.map(|_| CONFIG_EXCEPTION.to_string()),
            config_flops: 0,
        })
    }
}

/// Version of the [`BlockSynth`] layout; bumped when a field changes meaning. Version 2 names
/// the block's `family` and records its `timing` (was `pipeline`); version 3 times with
/// OpenSTA (`report.sta`; `hasher_paths` are OpenSTA's).
pub const FORMAT_VERSION: u32 = 3;
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
                "closure: {} (ABC {} dc2, map -D {}): {:.1} um2, ABC {:.1} ps, OpenSTA period \
                 {:.1} ps{}",
                t.variant,
                if t.dc2 { "with" } else { "without" },
                t.abc_target_ps,
                t.area_um2,
                t.delay_ps,
                t.min_period_ps,
                if t.kept { ", kept" } else { "" }
            ));
        }
        if let Some(sta) = &r.sta {
            lines.extend(sta_lines(sta, &self.timing.static_inputs));
        }
        lines.extend([
            format!(
                "tools: {} (its built-in ABC maps and times), {}{}",
                r.yosys_version,
                r.sta.as_ref().map_or(String::new(), |s| format!(
                    "{} (times the netlist), ",
                    s.tool
                )),
                self.generator
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
        if let Some(sta) = &r.sta {
            lines.push(format!("rerun OpenSTA alone: {}", sta.command));
        }
        lines
    }
}

/// The lines that say what OpenSTA found: the clock, the worst slack, the achievable clock and
/// the worst path of each group (a hasher's address and configuration paths by name).
fn sta_lines(sta: &synth::StaReport, static_inputs: &[String]) -> Vec<String> {
    let wires = match &sta.wire_load {
        WireLoad::Library => "the library's default wire-load model".to_string(),
        WireLoad::None => "no wire load".to_string(),
        WireLoad::Model(m) => format!("wire-load model {m}"),
    };
    let mut lines = vec![format!(
        "OpenSTA: clock {} at {} ps, {wires}: worst slack {}, {}",
        sta.clock,
        sta.period_ps,
        sta.worst_slack_ps
            .map_or("- (no constrained path)".into(), |s| format!("{s:.1} ps")),
        match (sta.min_period_ps, sta.fmax_mhz) {
            (Some(p), Some(f)) => format!(
                "smallest period {p:.1} ps ({f:.1} MHz, clock-to-Q and setup included){}",
                if sta.meets { "" } else { ": not met" }
            ),
            (Some(p), None) => format!("smallest period {p:.1} ps"),
            _ => "no clock period to find".into(),
        }
    )];
    if let Some(p) = &sta.critical_path {
        lines.push(format!("OpenSTA critical path: {}", describe(p)));
    }
    if !sta.black_boxes.is_empty() {
        lines.push(format!(
            "OpenSTA: no liberty file for {}: black boxes, no path into or out of them timed",
            sta.black_boxes.join(", ")
        ));
    }
    for k in &sta.clock_pin_checks {
        lines.push(format!(
            "OpenSTA clock-pin check {} on {}: needs {:.1} ps, has {:.1} ps (slack {:.1} ps; a \
             period of {:.1} ps at least)",
            k.check, k.pin, k.required_ps, k.actual_ps, k.slack_ps, k.min_period_ps
        ));
    }
    for p in &sta.groups {
        let from = &p.from;
        let what = if static_inputs.contains(from) {
            format!("configuration path from {from} (static: false path, 0 flip-flops)")
        } else if p.false_path {
            format!("paths from {from} (static: false path)")
        } else {
            format!("paths from {from}")
        };
        lines.push(format!("{what}: {}", describe(p)));
    }
    lines
}

/// One path in a line: delay, slack, cells and end points.
fn describe(p: &synth::StaPath) -> String {
    format!(
        "{:.1} ps{}, slack {:.1} ps, {} cells ({} -> {})",
        p.delay_ps,
        p.clock_to_q_ps
            .map_or(String::new(), |c| format!(" (clock-to-Q {c:.1})")),
        p.slack_ps,
        p.cells,
        p.start,
        p.end
    )
}

/// What `rtl-gen synth` asks of a liberty flow beyond the library: ABC's delay target and
/// closure, and the clock and wires OpenSTA times against.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SynthOptions {
    /// ABC's delay target in ps (the timing-driven flow; needs a liberty file).
    pub target_ps: Option<f64>,
    /// Map for the target four ways and keep the best netlist ([`synth::closure`]).
    pub closure: bool,
    /// OpenSTA's clock period in ps; `None`: the target, else [`synth::DEFAULT_CLOCK_PS`].
    pub clock_ps: Option<f64>,
    /// How OpenSTA estimates the wires.
    pub wire_load: WireLoad,
}

/// Synthesizes the block in `dir` (generic flow without `liberty`), with work files in
/// `<dir>/synth/`, and writes `<dir>/synth.json`. `command` is the `rtl-gen` command line
/// recorded as the way to reproduce it.
pub fn synthesize_block(
    dir: &Path,
    liberty: Option<&Path>,
    command: &str,
) -> Result<BlockSynth, Error> {
    synthesize_block_with(dir, liberty, &SynthOptions::default(), command)
}

/// [`synthesize_block`] with `options`: a delay target in ps (the timing-driven flow; needs
/// `liberty`), with `closure` the best of several mappings for it ([`synth::closure`]), and
/// OpenSTA's clock and wires.
pub fn synthesize_block_with(
    dir: &Path,
    liberty: Option<&Path>,
    options: &SynthOptions,
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
        // A macro's liberty file times and sizes it in the liberty flows only.
        macros: match liberty {
            Some(_) => manifest
                .macros
                .iter()
                .map(|m| dir.join(&m.liberty))
                .collect(),
            None => Vec::new(),
        },
    };
    let timing = synth::Timing {
        target_ps: options.target_ps,
        static_inputs: manifest.timing.static_inputs.clone(),
        closure: options.closure,
        clock: manifest.timing.clock.clone(),
        clock_ps: options.clock_ps,
        wire_load: options.wire_load.clone(),
    };
    let report = synth::synthesize_with(&request, &timing)?;
    let result = BlockSynth {
        hasher_paths: HasherPaths::of(&manifest.timing.static_inputs, &report),
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
