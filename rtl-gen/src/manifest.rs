//! The block manifest `<name>.json` and the filelist `<name>.f` (the FuseSoC cores are
//! [`crate::fusesoc`]'s): what lets a generated block of any family drop into existing flows, and what
//! `cosim` and `synth` read back. [`crate::block::render`] fills them from a block's contract.

use crate::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use testbenches::Timing;

/// Version of the manifest's layout; bumped when a field changes meaning. Version 2 made the
/// manifest family-neutral: `family` (was `block`), `summary`, `timing` (was `pipeline`),
/// `fields` per packed port (was the hasher's `cfg_fields`) and `program` (was `cfg_value`).
pub const FORMAT_VERSION: u32 = 2;

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

/// One field of a packed port (a configuration word, a table entry).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestField {
    /// Field name.
    pub name: String,
    /// Least significant bit within the port.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
    /// What it holds.
    pub description: String,
}

/// A table the block's user writes a word at a time through a write port (a loadable RAP
/// converter's shift tables, the D²MA controllers' entries written by configuration commands):
/// a rising clock edge with `strobe` set writes `data` into the word the `address` ports name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestWritePort {
    /// What is written, as the register description names it (`perm`, `cfg`).
    pub name: String,
    /// What the words are, in a few words.
    pub description: String,
    /// The write strobe port (`perm_we_i`, `cfg_valid_i`).
    pub strobe: String,
    /// The ports naming the word written, most significant first: the word's address is their
    /// concatenation (`[cfg_part_i, cfg_cta_i, cfg_buf_i]`).
    pub address: Vec<String>,
    /// The port carrying the word (`perm_val_i`, `cfg_data_i`).
    pub data: String,
    /// The words' layouts: one for every address, or one per value of the first address port.
    pub words: Vec<ManifestWord>,
}

/// The layout of the words of a [`ManifestWritePort`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestWord {
    /// The layout's name (`shifts`, `global`).
    pub name: String,
    /// What a word of it holds.
    pub description: String,
    /// The value of the first address port whose words have this layout; absent when every
    /// word has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub select: Option<u64>,
    /// Its fields within the data port, least significant first.
    pub fields: Vec<ManifestField>,
}

/// A block of its own that a block instantiates (the D²MA engine's AGEN): its module file is in
/// the block folder, with a FuseSoC core of its own (`crate::fusesoc`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestPart {
    /// Its top module's name, also its name as a block (`d2ma_agen_s128`).
    pub name: String,
    /// Its family (`d2ma`).
    pub family: String,
    /// Its kind within the family (`agen`).
    pub kind: String,
}

impl ManifestPart {
    /// Its module file, relative to the block folder.
    pub fn file(&self) -> String {
        format!("{}.v", self.name)
    }
}

/// The reset of a clocked block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestReset {
    /// The reset port (`rst_ni`).
    pub port: String,
    /// Whether it acts without waiting for a clock edge.
    pub asynchronous: bool,
    /// Whether it is asserted low.
    pub active_low: bool,
}

/// How a block's outputs follow its inputs in time, and its clock and reset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestTiming {
    /// `combinational`, `clocked` (state, combinational outputs) or `pipelined` (with its
    /// `latency` in cycles).
    #[serde(flatten)]
    pub timing: Timing,
    /// The inputs held still while the block runs, whose paths do not limit the clock
    /// (`Block::static_inputs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub static_inputs: Vec<String>,
    /// The clock port of a clocked or pipelined block (rising edge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// The reset of a clocked or pipelined block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset: Option<ManifestReset>,
}

impl ManifestTiming {
    /// A few words for a terminal: `combinational`, `clocked`, `pipelined, latency 1`.
    pub fn describe(&self) -> String {
        match self.timing {
            Timing::Combinational => "combinational".into(),
            Timing::Clocked => "clocked".into(),
            Timing::Pipelined { latency } => format!("pipelined, latency {latency}"),
        }
    }
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
    /// The testbench of block `name` as every block has it: `tb/tb_<name>.v` and its two
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

/// The manifest of one generated block, whatever its family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Generator name and version.
    pub generator: String,
    /// The command that produced the block.
    pub command: String,
    /// The block family, named as its command (`hash`, `rap`, `d2ma`).
    pub family: String,
    /// Top module name.
    pub top: String,
    /// The block's kind within its family (`bitvector-xor`, `rap`, `engine`).
    pub kind: String,
    /// A free-form label of the family's variant (`configurable`, `loadable-packed`).
    pub variant: String,
    /// What the block is, in a few words.
    pub summary: String,
    /// Combinational, clocked or pipelined; clock and reset.
    pub timing: ManifestTiming,
    /// Derived parameters (`ADDR_BITS`, `BANKS`, `CTAS`, `LATENCY`...).
    pub parameters: BTreeMap<String, u64>,
    /// The configuration object (the hash family takes it back with `--config`).
    pub configuration: serde_json::Value,
    /// Every port with direction and width (`clk_i`/`rst_ni` first).
    pub ports: Vec<ManifestPort>,
    /// The fields of each packed port (`cfg_i`, `entry_i`), by port name.
    pub fields: BTreeMap<String, Vec<ManifestField>>,
    /// For a block given a configuration to run with: the value (hex) each packed input port
    /// must hold to program it, by port name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub program: BTreeMap<String, String>,
    /// The tables written a word at a time through a write port.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub write_ports: Vec<ManifestWritePort>,
    /// The structural choices that differ from the family's default, by name (a configurable
    /// bit-vector hasher's `offsets: one-hot`); none for a default-structure block.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub structure: BTreeMap<String, String>,
    /// RTL files, relative to the block folder, each after the files it instantiates.
    pub rtl_files: Vec<String>,
    /// The blocks of their own among the modules (each with its core in the folder).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<ManifestPart>,
    /// Macros the block instantiates whose views are in the folder (an OpenRAM SRAM's liberty
    /// file and LEF): `rtl-gen synth` times them and counts their area.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub macros: Vec<ManifestMacro>,
    /// The testbench.
    pub testbench: ManifestTestbench,
}

/// A macro a block instantiates, with its views in the block folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestMacro {
    /// Its module's name (its liberty cell's).
    pub cell: String,
    /// Its liberty file, relative to the block folder.
    pub liberty: String,
    /// Its LEF, relative to the block folder, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lef: Option<String>,
}

impl Manifest {
    /// Reads the manifest of the block in `dir` (`<dir>/<dir name>.json`); `dir` may be `.` or
    /// end in `..` (the folder's own name is read from its resolved path).
    pub fn load(dir: &Path) -> Result<(Manifest, PathBuf), Error> {
        let resolved = dir.canonicalize().map_err(|e| Error::NotABlock {
            path: dir.into(),
            message: format!("not a block folder ({e})"),
        })?;
        let name = resolved
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| Error::NotABlock {
                path: dir.into(),
                message: "not a block folder".into(),
            })?;
        let path = dir.join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).map_err(|e| Error::NotABlock {
            path: dir.into(),
            message: format!(
                "no manifest {name}.json ({e}); write a block folder with a generator command \
                 first (`rtl-gen <family> ... --out DIR`)"
            ),
        })?;
        let not_a_manifest = |message: String| Error::ConfigFile {
            path: path.clone(),
            message,
        };
        let not_read = |e: crate::json_input::JsonError| {
            not_a_manifest(format!("not a manifest of this rtl-gen: {e}"))
        };
        let value = crate::json_input::parse_value(&text).map_err(not_read)?;
        match value
            .get("format_version")
            .and_then(serde_json::Value::as_u64)
        {
            Some(v) if v == u64::from(FORMAT_VERSION) => {}
            Some(v) => {
                return Err(not_a_manifest(format!(
                    "manifest format_version {v}; this rtl-gen reads version {FORMAT_VERSION}: \
                     generate the block again with the command its `command` field names"
                )))
            }
            None => {
                return Err(not_a_manifest(
                    "no format_version: not an rtl-gen manifest".into(),
                ))
            }
        }
        let manifest = crate::json_input::parse(&text, None).map_err(not_read)?;
        Ok((manifest, path))
    }

    /// The JSON text, pretty-printed with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| unreachable!("manifest serialises: {e}"));
        text.push('\n');
        text
    }

    /// The filelist: RTL files one per line, each after the files it instantiates, relative to
    /// the filelist's folder: `verilator -F <dir>/<name>.f` reads it from any folder (`-f`, and
    /// Icarus' `-c`, from the block folder).
    pub fn filelist(&self) -> String {
        self.rtl_files.iter().map(|f| format!("{f}\n")).collect()
    }
}
