//! Macros a design instantiates as black boxes (SRAMs): what their liberty files define, and
//! the working copies OpenSTA reads.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::lib_syntax::{self, Group};

/// A cell of a macro's liberty file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MacroCell {
    /// The cell's (and the module's) name.
    pub name: String,
    /// Its `area` (0 where it gives none), in the library's area unit (um² for OpenRAM).
    pub area_um2: f64,
    /// Its pins and buses, in the file's order (power pins left out).
    pub pins: Vec<MacroPin>,
}

/// A pin or bus of a [`MacroCell`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MacroPin {
    /// The pin's or bus's name (`clk0`, `dout0`).
    pub name: String,
    /// `input`, `output` or `inout`.
    pub direction: String,
    /// Bits (1 for a pin, the bus type's `bit_width` for a bus).
    pub width: u32,
    /// Whether the liberty file says `clock : true`.
    pub clock: bool,
}

impl MacroCell {
    /// The pin or bus called `name`.
    pub fn pin(&self, name: &str) -> Option<&MacroPin> {
        self.pins.iter().find(|p| p.name == name)
    }
}

/// Every cell a macro's liberty file (plain or gzip) defines.
///
/// Errors: [`Error::Liberty`] naming the file, when it cannot be read or parsed or defines no
/// cell.
pub fn read_macro(path: &Path) -> Result<Vec<MacroCell>, Error> {
    let (_, lib) = parse(path)?;
    let widths: BTreeMap<&str, u32> = lib
        .children("type")
        .filter_map(|t| {
            let width = t.attr("bit_width")?.parse().ok()?;
            Some((t.args.first()?.as_str(), width))
        })
        .collect();
    Ok(lib
        .children("cell")
        .filter_map(|c| {
            let pins = c
                .groups
                .iter()
                .filter(|g| g.name == "pin" || g.name == "bus")
                .filter_map(|g| {
                    let width = if g.name == "bus" {
                        *widths.get(g.attr("bus_type")?)?
                    } else {
                        1
                    };
                    Some(MacroPin {
                        name: g.args.first()?.clone(),
                        direction: g.attr("direction")?.to_string(),
                        width,
                        clock: g.attr("clock") == Some("true"),
                    })
                })
                .collect();
            Some(MacroCell {
                name: c.args.first()?.clone(),
                area_um2: c.attr("area").and_then(|a| a.parse().ok()).unwrap_or(0.0),
                pins,
            })
        })
        .collect())
}

/// The text and the parsed groups of a liberty file, or an error naming it.
fn parse(path: &Path) -> Result<(String, Group), Error> {
    let unusable = |reason: String| Error::Liberty {
        path: path.to_path_buf(),
        reason,
    };
    let text = crate::liberty::read_text(path).map_err(|e| unusable(e.to_string()))?;
    let lib = lib_syntax::parse(&text, &|_| true).map_err(unusable)?;
    if lib.children("cell").next().is_none() {
        return Err(unusable("no cell in the library".into()));
    }
    Ok((text, lib))
}

/// A macro's liberty file ready for OpenSTA, see [`macro_liberty`].
#[derive(Debug, Clone, PartialEq)]
pub struct MacroLiberty {
    /// The file the caller gave.
    pub given: PathBuf,
    /// The working copy OpenSTA reads.
    pub plain: PathBuf,
    /// The cells it defines, with their areas (0 where it gives none).
    pub cells: BTreeMap<String, f64>,
}

/// Reads the liberty file of a macro (plain or gzip) and writes its working copy into `work`:
/// the same text, with each clock pin's `minimum_period` and `min_pulse_width` timing groups
/// (OpenRAM's way of stating them, which OpenSTA 2.0.17 ignores) restated as the pin attributes
/// `min_period`, `min_pulse_width_high` and `min_pulse_width_low` (which it checks), the
/// larger of the rise and fall constraints.
pub fn macro_liberty(path: &Path, work: &Path) -> Result<MacroLiberty, Error> {
    let (text, lib) = parse(path)?;
    let cells: BTreeMap<String, f64> = lib
        .children("cell")
        .filter_map(|c| {
            let area = c.attr("area").and_then(|a| a.parse().ok()).unwrap_or(0.0);
            Some((c.args.first()?.clone(), area))
        })
        .collect();
    let mut limits: Vec<(String, Vec<String>)> = Vec::new();
    for cell in lib.children("cell") {
        for pin in cell.children("pin") {
            let mut lines = Vec::new();
            for timing in pin.children("timing") {
                let kind = timing.attr("timing_type").unwrap_or("");
                let worst = ["rise_constraint", "fall_constraint"]
                    .iter()
                    .filter_map(|g| timing.child(g))
                    .filter_map(|g| g.complex_attr("values"))
                    .flat_map(|v| v.iter())
                    .flat_map(|v| v.split(','))
                    .filter_map(|v| v.trim().parse::<f64>().ok())
                    .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
                let Some(value) = worst else { continue };
                match kind {
                    "minimum_period" => lines.push(format!("min_period : {value} ;")),
                    "min_pulse_width" => lines.extend([
                        format!("min_pulse_width_high : {value} ;"),
                        format!("min_pulse_width_low : {value} ;"),
                    ]),
                    _ => {}
                }
            }
            if let (false, Some(name)) = (lines.is_empty(), pin.args.first()) {
                limits.push((name.clone(), lines));
            }
        }
    }
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        let opened = pin_opened(line);
        if let Some((_, added)) = limits.iter().find(|(n, _)| Some(n.as_str()) == opened) {
            for a in added {
                out.push_str("        ");
                out.push_str(a);
                out.push_str(" /* restated for OpenSTA by rtl-gen */\n");
            }
        }
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "macro.lib".into());
    let stem = name.strip_suffix(".gz").unwrap_or(&name);
    let plain = work.join(format!("macro_{stem}"));
    std::fs::write(&plain, out).map_err(|source| Error::WorkDir {
        path: plain.clone(),
        source,
    })?;
    Ok(MacroLiberty {
        given: path.to_path_buf(),
        plain,
        cells,
    })
}

/// The pin a liberty line opens (`pin(clk0){`, `pin ("clk0") {`), if any.
fn pin_opened(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("pin")?.trim_start();
    let rest = rest.strip_prefix('(')?;
    let (name, after) = rest.split_once(')')?;
    after
        .trim_start()
        .starts_with('{')
        .then(|| name.trim().trim_matches('"').trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OpenRAM's shape of a liberty file: bus types, buses, a clock pin with its limits.
    const RAM: &str = r#"library (ram_lib) {
  time_unit : "1ns" ;
  type (data) { base_type : array ; data_type : bit ; bit_width : 8 ; bit_from : 7 ; bit_to : 0 ; }
  type (addr) { base_type : array ; data_type : bit ; bit_width : 4 ; bit_from : 3 ; bit_to : 0 ; }
  cell (ram16x8) {
    area : 812.5 ;
    pg_pin (vdd) { pg_type : primary_power ; }
    bus (din0) { bus_type : data ; direction : input ; }
    bus (addr0) { bus_type : addr ; direction : input ; }
    bus (dout0) { bus_type : data ; direction : output ; }
    pin (csb0) { direction : input ; }
    pin (clk0) {
      clock : true ; direction : input ;
      timing () { timing_type : "minimum_period" ; related_pin : clk0 ;
        rise_constraint (scalar) { values ("1.2") ; } fall_constraint (scalar) { values ("1.1") ; } }
      timing () { timing_type : "min_pulse_width" ; related_pin : clk0 ;
        rise_constraint (scalar) { values ("0.6") ; } fall_constraint (scalar) { values ("0.6") ; } }
    }
  }
}
"#;

    #[test]
    fn cells_pins_and_bus_widths() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("ram.lib");
        std::fs::write(&lib, RAM).unwrap();
        let cells = read_macro(&lib).unwrap();
        assert_eq!(cells.len(), 1);
        let c = &cells[0];
        assert_eq!((c.name.as_str(), c.area_um2), ("ram16x8", 812.5));
        let pins: Vec<(&str, &str, u32, bool)> = c
            .pins
            .iter()
            .map(|p| (p.name.as_str(), p.direction.as_str(), p.width, p.clock))
            .collect();
        assert_eq!(
            pins,
            [
                ("din0", "input", 8, false),
                ("addr0", "input", 4, false),
                ("dout0", "output", 8, false),
                ("csb0", "input", 1, false),
                ("clk0", "input", 1, true),
            ]
        );
        // The working copy restates the clock pin's limits, the larger of rise and fall.
        let m = macro_liberty(&lib, dir.path()).unwrap();
        assert_eq!(m.cells.get("ram16x8"), Some(&812.5));
        let copy = std::fs::read_to_string(&m.plain).unwrap();
        let after = copy.split("pin (clk0) {").nth(1).unwrap();
        let added: Vec<&str> = after
            .lines()
            .skip(1)
            .take(3)
            .map(|l| l.split("/*").next().unwrap().trim())
            .collect();
        assert_eq!(
            added,
            [
                "min_period : 1.2 ;",
                "min_pulse_width_high : 0.6 ;",
                "min_pulse_width_low : 0.6 ;"
            ]
        );
        std::fs::write(&lib, "library (empty) { }\n").unwrap();
        let e = read_macro(&lib).unwrap_err();
        assert!(e.to_string().contains("no cell"), "{e}");
    }
}
