//! Latch cells for the liberty flows: Yosys 0.23's `dfflibmap` maps flip-flops only, so the
//! level-sensitive latches a design holds (`$_DLATCH_P_`, `$_DLATCH_N_`) would stay generic.
//! [`techmap`] finds the library's plain latches (a `latch` group with `data_in` and `enable`,
//! no clear or preset) and writes a Yosys techmap file that replaces each generic latch by the
//! smallest library latch of its enable polarity (NanGate45: `DLH_X1`, `DLL_X1`); the scripts
//! apply it right after `dfflibmap`.

use crate::lib_syntax::{self, Group};

/// File name of the latch techmap in the work folder.
pub const LATCH_MAP_FILE: &str = "latches.v";

/// A library latch usable for one generic latch cell.
#[derive(Debug, Clone, PartialEq)]
struct LatchCell {
    name: String,
    area: f64,
    enable: String,
    active_low: bool,
    data: String,
    q: String,
}

/// The names of the cells whose body has a `latch (` group (a line scan, so that only those
/// are parsed).
fn latch_cell_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("cell") {
            let rest = rest.trim_start();
            if let Some(args) = rest.strip_prefix('(') {
                current = args
                    .split(')')
                    .next()
                    .map(|n| n.trim().trim_matches('"').trim().to_string());
            }
        } else if t.starts_with("latch") && t[5..].trim_start().starts_with('(') {
            if let Some(n) = current.take() {
                names.push(n);
            }
        }
    }
    names
}

fn latch_cell(cell: &Group) -> Option<LatchCell> {
    let latch = cell.child("latch")?;
    if latch.attr("clear").is_some() || latch.attr("preset").is_some() {
        return None;
    }
    let state = latch.args.first()?;
    let enable = latch.attr("enable")?.trim();
    let (active_low, enable) = match enable.strip_prefix('!') {
        Some(pin) => (true, pin.trim()),
        None => (false, enable),
    };
    let data = latch.attr("data_in")?.trim();
    let is_pin = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_pin(enable) || !is_pin(data) {
        return None;
    }
    let q = cell
        .children("pin")
        .find(|p| p.attr("direction") == Some("output") && p.attr("function") == Some(state))?;
    Some(LatchCell {
        name: cell.args.first()?.clone(),
        area: cell.attr("area")?.trim().parse().ok()?,
        enable: enable.into(),
        active_low,
        data: data.into(),
        q: q.args.first()?.clone(),
    })
}

/// The techmap text for the liberty `text`: one module per generic latch polarity the library
/// has a plain latch for (a comment alone when it has none).
pub fn techmap(text: &str) -> Result<String, String> {
    let names = latch_cell_names(text);
    let lib = lib_syntax::parse(text, &|n| names.iter().any(|m| m == n))?;
    let cells: Vec<LatchCell> = lib.children("cell").filter_map(latch_cell).collect();
    let mut out = String::from(
        "// Generic latches to the library's smallest plain latch of each enable polarity,\n\
         // written by rtl-gen synth (Yosys 0.23's dfflibmap maps flip-flops only).\n",
    );
    for (generic, low) in [("$_DLATCH_P_", false), ("$_DLATCH_N_", true)] {
        let best = cells
            .iter()
            .filter(|c| c.active_low == low)
            .min_by(|a, b| a.area.total_cmp(&b.area).then(a.name.cmp(&b.name)));
        if let Some(c) = best {
            out.push_str(&format!(
                "module \\{generic} (input E, input D, output Q);\n  {} _TECHMAP_REPLACE_ \
                 (.{}(E), .{}(D), .{}(Q));\nendmodule\n",
                c.name, c.enable, c.data, c.q
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = r#"library (tiny) {
  cell (BIG_LATCH) { area : 5.0 ;
    latch (IQ, IQN) { data_in : "D" ; enable : "G" ; }
    pin (D) { direction : input ; } pin (G) { direction : input ; clock : true ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (SMALL_LATCH) { area : 2.5 ;
    latch (IQ, IQN) { data_in : "D" ; enable : "G" ; }
    pin (D) { direction : input ; } pin (G) { direction : input ; clock : true ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (LOW_LATCH) { area : 2.7 ;
    latch (IQ, IQN) { data_in : "D" ; enable : "!GN" ; }
    pin (D) { direction : input ; } pin (GN) { direction : input ; clock : true ; }
    pin (QN) { direction : output ; function : "IQN" ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (CLR_LATCH) { area : 1.0 ;
    latch (IQ, IQN) { data_in : "D" ; enable : "G" ; clear : "!RN" ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (INV) { area : 0.5 ; pin (A) { direction : input ; }
    pin (ZN) { direction : output ; function : "!A" ; } }
}"#;

    #[test]
    fn smallest_plain_latch_per_polarity() {
        let map = techmap(LIB).unwrap();
        assert!(
            map.contains("module \\$_DLATCH_P_ (input E, input D, output Q);\n  SMALL_LATCH _TECHMAP_REPLACE_ (.G(E), .D(D), .Q(Q));"),
            "{map}"
        );
        assert!(
            map.contains("module \\$_DLATCH_N_ (input E, input D, output Q);\n  LOW_LATCH _TECHMAP_REPLACE_ (.GN(E), .D(D), .Q(Q));"),
            "{map}"
        );
        assert!(
            !map.contains("CLR_LATCH") && !map.contains("BIG_LATCH"),
            "{map}"
        );
    }

    #[test]
    fn a_library_without_latches_maps_none() {
        let map = techmap("library (x) { cell (INV) { area : 1 ; } }").unwrap();
        assert!(!map.contains("module"), "{map}");
    }
}
