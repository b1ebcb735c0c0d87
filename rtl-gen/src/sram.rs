//! The SRAM macro of a shared memory's banks (`rtl-gen smem --sram-macro VALUE`):
//!
//! - `NAME`: a macro named only, with the project's port list (docs/SMEM.md): a black box to
//!   synthesis, with no timing or area;
//! - `openram` or `openram:TECH` (`freepdk45`, the default, or `scn4m_subm`): an OpenRAM macro
//!   of the bank's size, made by OpenRAM and cached ([`crate::openram`]);
//! - a path to an OpenRAM macro's liberty file (`.../sram_512x32_fp45_TT_1p0V_25C.lib`): a macro
//!   made before, its `.lef` beside it.
//!
//! An OpenRAM macro's liberty file (and `.lef`) goes into the block folder and its manifest
//! (`macros`), so that `rtl-gen synth` times its pins and counts its area.

use crate::openram::{self, Tech};
use crate::Error;
use std::path::{Path, PathBuf};

/// What each bank instantiates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SramMacro {
    /// A macro named only: the project's port list, a black box.
    Named(String),
    /// An OpenRAM single-port macro with its files.
    OpenRam(OpenRamMacro),
}

/// An OpenRAM single-port macro: ports `clk0`, `csb0` (chip select, active low), `web0` (write
/// enable, active low), `wmask0` (a bit per byte), `addr0`, `din0`, `dout0` (valid after the
/// falling clock edge of the cycle that read it, until the next rising edge).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenRamMacro {
    /// Its module's name (the liberty file's cell).
    pub cell: String,
    /// Its liberty file.
    pub liberty: PathBuf,
    /// The liberty file's text.
    pub liberty_text: String,
    /// Its LEF's text, when there is a LEF beside the liberty file (`<cell>.lef`).
    pub lef_text: Option<String>,
    /// Its address and data widths.
    pub addr_bits: u32,
    /// Bits of a word.
    pub word_bits: u32,
}

impl OpenRamMacro {
    /// The file name of its liberty file in a block folder.
    pub fn liberty_file(&self) -> String {
        format!("{}.lib", self.cell)
    }

    /// The file name of its LEF in a block folder.
    pub fn lef_file(&self) -> String {
        format!("{}.lef", self.cell)
    }
}

impl SramMacro {
    /// The module every bank instantiates.
    pub fn name(&self) -> &str {
        match self {
            SramMacro::Named(name) => name,
            SramMacro::OpenRam(m) => &m.cell,
        }
    }
}

/// What `--sram-macro` accepts, for its one-line refusals.
const ALLOWED: &str = "a module name, `openram` or `openram:TECH` (freepdk45, scn4m_subm), or \
                       an OpenRAM macro's .lib";

fn bad(value: &str, message: String) -> Error {
    Error::BadFlag {
        flag: "--sram-macro",
        value: value.to_string(),
        message,
    }
}

/// Reads `--sram-macro VALUE` for banks of `depth` words of `word_bytes` bytes: a name is
/// checked by the design ([`crate::smem::SmemDesign`]); `openram[:TECH]` makes (or finds in the
/// cache) the macro, telling `progress`; a path must be an OpenRAM macro that fits the bank.
pub fn resolve(
    value: &str,
    depth: u32,
    word_bytes: u32,
    progress: &dyn Fn(&str),
) -> Result<SramMacro, Error> {
    if let Some(rest) = value.strip_prefix("openram") {
        if rest.is_empty() || rest.starts_with(':') {
            let tech_name = rest.strip_prefix(':').unwrap_or("freepdk45");
            let tech = Tech::parse(tech_name).ok_or_else(|| {
                bad(
                    value,
                    format!("no OpenRAM technology {tech_name:?} (freepdk45, scn4m_subm)"),
                )
            })?;
            let lib = openram::generate(tech, depth, word_bytes * 8, progress)?;
            return load(&lib, value, depth, word_bytes);
        }
    }
    let is_path = value.contains('/') || value.ends_with(".lib");
    if is_path {
        return load(Path::new(value), value, depth, word_bytes);
    }
    Ok(SramMacro::Named(value.to_string()))
}

/// The OpenRAM macro whose liberty file is `lib`, checked against the bank.
fn load(lib: &Path, value: &str, depth: u32, word_bytes: u32) -> Result<SramMacro, Error> {
    if !lib.is_file() {
        return Err(bad(value, format!("no such file ({ALLOWED})")));
    }
    let cells = synth::read_macro(lib).map_err(|e| bad(value, e.to_string()))?;
    let [cell] = &cells[..] else {
        return Err(bad(
            value,
            format!(
                "defines {} cells; a macro's liberty file defines one",
                cells.len()
            ),
        ));
    };
    let (w, a) = (word_bytes * 8, depth.trailing_zeros());
    let wanted = [
        ("clk0", "input", 1),
        ("csb0", "input", 1),
        ("web0", "input", 1),
        ("wmask0", "input", word_bytes),
        ("addr0", "input", a),
        ("din0", "input", w),
        ("dout0", "output", w),
    ];
    let fits = wanted.iter().all(|(name, dir, width)| {
        cell.pin(name)
            .is_some_and(|p| p.direction == *dir && p.width == *width)
    }) && cell.pins.len() == wanted.len();
    if !fits {
        let has: Vec<String> = cell
            .pins
            .iter()
            .map(|p| format!("{} {} {}", p.direction, p.name, p.width))
            .collect();
        return Err(bad(
            value,
            format!(
                "cell {} ({}) is not an OpenRAM single-port macro of {depth} words of {w} bits \
                 (clk0, csb0, web0, wmask0 {word_bytes}, addr0 {a}, din0 {w}, dout0 {w})",
                cell.name,
                has.join(", ")
            ),
        ));
    }
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|e| bad(value, format!("{}: {e}", path.display())))
    };
    let lef = lib.with_file_name(format!("{}.lef", cell.name));
    Ok(SramMacro::OpenRam(OpenRamMacro {
        cell: cell.name.clone(),
        liberty: lib.to_path_buf(),
        liberty_text: read(lib)?,
        lef_text: if lef.is_file() {
            Some(read(&lef)?)
        } else {
            None
        },
        addr_bits: a,
        word_bits: w,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PDK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/pdk/openram");

    #[test]
    fn names_paths_and_refusals() {
        let none = |_: &str| {};
        assert_eq!(
            resolve("sram_512x32", 512, 4, &none).unwrap(),
            SramMacro::Named("sram_512x32".into())
        );
        let e = resolve("openram:sky130", 512, 4, &none)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--sram-macro openram:sky130: no OpenRAM technology"),
            "{e}"
        );
        let e = resolve("nowhere/x.lib", 512, 4, &none)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--sram-macro nowhere/x.lib: no such file"),
            "{e}"
        );
        let lib = format!("{PDK}/sram_512x32_fp45_TT_1p0V_25C.lib");
        if !Path::new(&lib).is_file() {
            println!("note: {lib} is absent; the macro part of this test is skipped");
            return;
        }
        let SramMacro::OpenRam(m) = resolve(&lib, 512, 4, &none).unwrap() else {
            panic!("an OpenRAM macro");
        };
        assert_eq!(
            (m.cell.as_str(), m.addr_bits, m.word_bits),
            ("sram_512x32_fp45", 9, 32)
        );
        assert!(m.liberty_text.contains("cell (sram_512x32_fp45)"));
        assert!(m.lef_text.unwrap().contains("MACRO sram_512x32_fp45"));
        // The same macro does not fit a bank of 256 words or of 8-byte words.
        for (depth, bytes) in [(256, 4), (512, 8)] {
            let e = resolve(&lib, depth, bytes, &none).unwrap_err().to_string();
            assert!(e.contains("is not an OpenRAM single-port macro"), "{e}");
            assert!(e.contains("input addr0 9"), "{e}");
        }
    }
}
