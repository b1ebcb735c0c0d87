//! The block manifest `<name>.json`, the filelist `<name>.f` and the FuseSoC core
//! `<name>.core`: what lets a generated block drop into existing flows, and what `cosim` and
//! `synth` read back.

use crate::output::Staging;
use crate::rtl::{Direction, Module};
use crate::Error;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use testbenches::{Harness, Vector};

/// Version of the manifest's layout; bumped when a field changes meaning.
pub const FORMAT_VERSION: u32 = 1;

/// The generator's name and version, as written into every file.
pub fn generator() -> String {
    format!("rtl-gen {}", env!("CARGO_PKG_VERSION"))
}

/// One port as the manifest lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestPort {
    /// Port name.
    pub name: String,
    /// `input` or `output`.
    pub direction: String,
    /// Width in bits.
    pub width: u32,
    /// What it carries.
    pub description: String,
}

/// One field of a configuration port.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestField {
    /// Field name.
    pub name: String,
    /// Least significant bit within the port.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
    /// What it selects.
    pub description: String,
}

/// The self-checking testbench shipped with a block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestTestbench {
    /// Top module of the testbench.
    pub top: String,
    /// Testbench source, relative to the block folder.
    pub source: String,
    /// Stimulus file, relative to the block folder.
    pub stimulus: String,
    /// Expected-output file, relative to the block folder.
    pub expected: String,
    /// Number of vectors.
    pub vectors: usize,
    /// Seed the vectors were drawn with.
    pub seed: u64,
    /// How they were chosen, in words.
    pub coverage: String,
}

impl ManifestTestbench {
    /// The testbench of block `name` as every generator writes it: `tb/tb_<name>.v` and its two
    /// vector files under `tb/`.
    pub fn for_block(name: &str, vectors: usize, seed: u64, coverage: String) -> Self {
        Self {
            top: format!("tb_{name}"),
            source: format!("tb/tb_{name}.v"),
            stimulus: format!("tb/{}", testbenches::testbench::stimulus_file_name(name)),
            expected: format!("tb/{}", testbenches::testbench::expected_file_name(name)),
            vectors,
            seed,
            coverage,
        }
    }
}

/// The manifest of one generated block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Generator name and version.
    pub generator: String,
    /// The command that produced the block.
    pub command: String,
    /// Block family (`hash`).
    pub block: String,
    /// Top module name.
    pub top: String,
    /// The block's kind within its family (`bitvector-xor`).
    pub kind: String,
    /// Derived parameters (`ADDR_BITS`, `BANK_BITS`, `BANKS`, `CFG_WIDTH`, `LATENCY`).
    pub parameters: std::collections::BTreeMap<String, u64>,
    /// `fixed` or `configurable`.
    pub variant: String,
    /// Whether the outputs are registered.
    pub pipeline: bool,
    /// The configuration object (feed it back with `--config`).
    pub configuration: serde_json::Value,
    /// Every port with direction and width (`clk_i`/`rst_ni` included).
    pub ports: Vec<ManifestPort>,
    /// The fields of `cfg_i`, empty for fixed blocks.
    pub cfg_fields: Vec<ManifestField>,
    /// For a configurable block given a configuration: the `cfg_i` value (hex) that programs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cfg_value: Option<String>,
    /// RTL files, relative to the block folder.
    pub rtl_files: Vec<String>,
    /// The testbench.
    pub testbench: ManifestTestbench,
}

impl Manifest {
    /// Writes the block folder `<out_dir>/<top>` atomically ([`Staging`]): the RTL files
    /// (`(file name, text)`, as `rtl_files` lists them), this manifest, the filelist, the FuseSoC
    /// core, and the testbench of `harness` with its `vectors` under `tb/`. Returns its path.
    pub fn write_block(
        &self,
        out_dir: &Path,
        rtl: &[(String, String)],
        harness: &Harness,
        vectors: &[Vector],
    ) -> Result<PathBuf, Error> {
        let name = &self.top;
        let staging = Staging::new(out_dir, name)?;
        for (file, text) in rtl {
            staging.write(file, text)?;
        }
        staging.write(&format!("{name}.json"), &self.to_json())?;
        staging.write(&format!("{name}.f"), &self.filelist())?;
        staging.write(&format!("{name}.core"), &self.core())?;
        testbenches::write_testbench(&staging.path().join("tb"), harness, vectors)?;
        staging.commit()
    }
    /// The ports of `module`, clock and reset first.
    pub fn ports_of(module: &Module) -> Vec<ManifestPort> {
        let mut ports = Vec::new();
        if module.clocked {
            for (name, description) in [
                ("clk_i", "Clock."),
                ("rst_ni", "Asynchronous reset, active low."),
            ] {
                ports.push(ManifestPort {
                    name: name.into(),
                    direction: "input".into(),
                    width: 1,
                    description: description.into(),
                });
            }
        }
        ports.extend(module.ports.iter().map(|p| ManifestPort {
            name: p.signal.name().into(),
            direction: match p.direction {
                Direction::Input => "input".into(),
                Direction::Output => "output".into(),
            },
            width: p.signal.width(),
            description: p.doc.clone(),
        }));
        ports
    }

    /// Reads the manifest of the block in `dir` (`<dir>/<dir name>.json`).
    pub fn load(dir: &Path) -> Result<(Manifest, PathBuf), Error> {
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| Error::NotABlock {
                path: dir.into(),
                message: "not a block folder".into(),
            })?;
        let path = dir.join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).map_err(|e| Error::NotABlock {
            path: dir.into(),
            message: format!("no manifest {name}.json ({e}); generate the block with `rtl-gen hash ... --out` first"),
        })?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| Error::ConfigFile {
            path: path.clone(),
            message: format!("not a manifest of this rtl-gen: {e}"),
        })?;
        Ok((manifest, path))
    }

    /// The JSON text, pretty-printed with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| unreachable!("manifest serialises: {e}"));
        text.push('\n');
        text
    }

    /// The filelist: RTL files one per line, relative to the block folder.
    pub fn filelist(&self) -> String {
        self.rtl_files.iter().map(|f| format!("{f}\n")).collect()
    }

    /// A FuseSoC CAPI2 core with `default` (synthesis), `lint` (Verilator -Wall) and `sim`
    /// (the self-checking testbench under Icarus) targets.
    pub fn core(&self) -> String {
        let tb = &self.testbench;
        let rtl: String = self
            .rtl_files
            .iter()
            .map(|f| format!("      - {f}\n"))
            .collect();
        let strip = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
        format!(
            "CAPI=2:\n\
             # Generated by {gen}: do not edit.\n\
             name: \"rtl-gen:{block}:{top}:{version}\"\n\
             description: \"{kind} {block} generated by {gen}\"\n\
             \n\
             filesets:\n  rtl:\n    file_type: verilogSource\n    files:\n{rtl}\
             \x20 tb:\n    file_type: verilogSource\n    files:\n      - {tb_src}\n\
             \x20     - {stim}: {{file_type: user, copyto: {stim_name}}}\n\
             \x20     - {exp}: {{file_type: user, copyto: {exp_name}}}\n\
             \n\
             targets:\n  default:\n    filesets: [rtl]\n    toplevel: {top}\n\
             \x20 lint:\n    default_tool: verilator\n    filesets: [rtl]\n    toplevel: {top}\n    tools:\n      verilator:\n        mode: lint-only\n        verilator_options: [-Wall]\n\
             \x20 sim:\n    default_tool: icarus\n    filesets: [rtl, tb]\n    toplevel: {tb_top}\n    tools:\n      icarus:\n        iverilog_options: [-g2005]\n",
            gen = self.generator,
            block = self.block,
            top = self.top,
            version = env!("CARGO_PKG_VERSION"),
            kind = self.kind,
            tb_src = tb.source,
            stim = tb.stimulus,
            stim_name = strip(&tb.stimulus),
            exp = tb.expected,
            exp_name = strip(&tb.expected),
            tb_top = tb.top,
        )
    }
}
