//! Synthesis of a generated block folder: reads the block's manifest, runs the `synth` crate's
//! Yosys flow on its RTL and writes `synth.json` beside the manifest.
//!
//! `synth.json` ([`BlockSynth`]) names everything needed to trust and reproduce its numbers:
//! the generator, the `rtl-gen` command that produced it, the Yosys version (ABC is Yosys'
//! built-in copy), the liberty library and file, and the Yosys command that reruns the flow in
//! the work folder `<block>/synth/`.

use crate::manifest::{generator, Manifest};
use crate::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Version of the [`BlockSynth`] layout; bumped when a field changes meaning.
pub const FORMAT_VERSION: u32 = 1;
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
    /// The block's kind (`bitvector-xor`).
    pub kind: String,
    /// `fixed` or `configurable`.
    pub variant: String,
    /// Whether the block's output is registered.
    pub pipeline: bool,
    /// The block's derived parameters, as in its manifest.
    pub parameters: BTreeMap<String, u64>,
    /// The numbers, with the Yosys version, liberty file and Yosys command.
    pub report: synth::SynthReport,
}

impl BlockSynth {
    /// Pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_else(|e| unreachable!("{e}"));
        s.push('\n');
        s
    }

    /// The lines printed under the table: tools, library and the reproducing commands.
    pub fn provenance(&self) -> Vec<String> {
        let r = &self.report;
        vec![
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
        ]
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
    let (manifest, _) = Manifest::load(dir)?;
    if let Some(lib) = liberty {
        synth::check_liberty(lib)?;
    }
    crate::output::OutputFolder::check(&dir.join(SYNTH_DIR))?;
    let request = synth::SynthRequest {
        files: manifest.rtl_files.iter().map(|f| dir.join(f)).collect(),
        top: manifest.top.clone(),
        liberty: liberty.map(Path::to_path_buf),
        work_dir: dir.join(SYNTH_DIR),
    };
    let report = synth::synthesize(&request)?;
    let result = BlockSynth {
        format_version: FORMAT_VERSION,
        generator: generator(),
        command: command.to_string(),
        top: manifest.top,
        kind: manifest.kind,
        variant: manifest.variant,
        pipeline: manifest.pipeline,
        parameters: manifest.parameters,
        report,
    };
    let path = dir.join(SYNTH_JSON);
    crate::output::write_file(&path, result.to_json().as_bytes())?;
    Ok(result)
}
