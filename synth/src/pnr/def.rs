//! What a routed DEF file says about a layout: the die, the placed cells and the length of the
//! routed wires (qflow prints no wirelength of its own).

use std::collections::BTreeMap;

/// Figures of a routed DEF.
#[derive(Debug, Clone, PartialEq)]
pub struct DefSummary {
    /// Database units per micron (`UNITS DISTANCE MICRONS`).
    pub units_per_micron: f64,
    /// The die's width and height in um (`DIEAREA`).
    pub die_um: (f64, f64),
    /// Placed cells by type (`COMPONENTS`), fill cells included.
    pub cells: BTreeMap<String, u64>,
    /// The routed length of the signal nets (`NETS`) in um: the Manhattan length of every
    /// wire segment of every layer; vias add none.
    pub wirelength_um: f64,
}

/// Reads a number of a DEF statement.
fn number(token: Option<&str>) -> Option<f64> {
    token?.parse().ok()
}

/// Parses the parts of `text` (a DEF) that [`DefSummary`] holds; `None` when a section is missing
/// or malformed.
pub fn summarize(text: &str) -> Option<DefSummary> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let find = |seq: &[&str]| tokens.windows(seq.len()).position(|w| w == seq);
    let units = number(
        tokens
            .get(find(&["UNITS", "DISTANCE", "MICRONS"])? + 3)
            .copied(),
    )?;
    let die = find(&["DIEAREA"])?;
    // DIEAREA ( x0 y0 ) ( x1 y1 ) ;
    let corner = |i: usize| number(tokens.get(die + i).copied());
    let (x0, y0, x1, y1) = (corner(2)?, corner(3)?, corner(6)?, corner(7)?);
    let section = |name: &str| -> Option<&[&str]> {
        let start = tokens.iter().position(|t| *t == name)?;
        let end = find(&["END", name])?;
        (start < end).then(|| &tokens[start + 1..end])
    };
    let mut cells = BTreeMap::new();
    // - <instance> <cell> + PLACED ( x y ) N ;
    for statement in section("COMPONENTS")?.split(|t| *t == ";") {
        if let ["-", _instance, cell, ..] = statement {
            *cells.entry(cell.to_string()).or_insert(0) += 1;
        }
    }
    let mut length = 0.0;
    let mut last: Option<(f64, f64)> = None;
    let nets = section("NETS")?;
    let mut i = 0;
    while i < nets.len() {
        match nets[i] {
            // A new wire segment on a layer starts after ROUTED or NEW and the layer name.
            "ROUTED" | "NEW" | "FIXED" | "COVER" => {
                last = None;
                i += 2;
            }
            ";" | "-" => {
                last = None;
                i += 1;
            }
            "(" if i + 3 < nets.len() && nets[i + 3] == ")" => {
                let coordinate = |t: &str, previous: Option<f64>| match t {
                    "*" => previous,
                    t => t.parse().ok(),
                };
                let x = coordinate(nets[i + 1], last.map(|p| p.0));
                let y = coordinate(nets[i + 2], last.map(|p| p.1));
                if let (Some(x), Some(y)) = (x, y) {
                    if let Some((px, py)) = last {
                        length += (x - px).abs() + (y - py).abs();
                    }
                    last = Some((x, y));
                }
                i += 4;
            }
            _ => i += 1,
        }
    }
    Some(DefSummary {
        units_per_micron: units,
        die_um: ((x1 - x0) / units, (y1 - y0) / units),
        cells,
        wirelength_um: length / units,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEF: &str = "VERSION 5.6 ;
DESIGN t ;
UNITS DISTANCE MICRONS 100 ;
DIEAREA ( -320 -300 ) ( 14480 9300 ) ;
COMPONENTS 3 ;
- DFFPOSX1_1 DFFPOSX1 + PLACED ( 0 0 ) N ;
- NAND2X1_1 NAND2X1 + PLACED ( 960 0 ) N ;
- FILL_1 FILL + PLACED ( 1200 0 ) N ;
END COMPONENTS
NETS 2 ;
- a
  ( PIN a ) ( NAND2X1_1 A )
+ ROUTED metal2 ( 6640 9300 ) ( * 8700 ) M2_M1
  NEW metal1 ( 6480 1400 ) ( 6560 * ) M2_M1
  NEW metal4 ( 6640 1800 ) ( 6560 * ) ( * 7100 ) M4_M3
  NEW metal1 ( 9760 700 ) M2_M1
 ;
- b
  ( NAND2X1_1 Y ) ( DFFPOSX1_1 D )
+ ROUTED metal1 ( 0 0 ) ( 100 * ) ;
END NETS
SPECIALNETS 1 ;
- vdd ( * vdd ) + ROUTED metal1 120 ( 0 0 ) ( 99999 * ) ;
END SPECIALNETS
END DESIGN
";

    #[test]
    fn wirelength_die_and_cells() {
        let s = summarize(DEF).unwrap();
        assert_eq!(s.units_per_micron, 100.0);
        assert_eq!(s.die_um, (148.0, 96.0));
        assert_eq!(s.cells["DFFPOSX1"], 1);
        assert_eq!(s.cells["FILL"], 1);
        // By hand: 600 + 80 + (80 + 5300) + 0, then net b's 100: 6160 units = 61.6 um; the
        // special net's power stripe is not a signal wire.
        assert!((s.wirelength_um - 61.6).abs() < 1e-9, "{}", s.wirelength_um);
    }

    #[test]
    fn a_file_without_nets_is_not_a_routed_def() {
        assert_eq!(
            summarize("UNITS DISTANCE MICRONS 100 ; DIEAREA ( 0 0 ) ( 1 1 ) ;"),
            None
        );
    }
}
