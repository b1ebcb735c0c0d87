//! What ABC is told of a design's boundary when OpenSTA times it with a wire-load model.
//!
//! ABC maps the logic between registers and ports: to it a register's output is a primary
//! input and a register's input a primary output, with no driver and no load, and a net's wire
//! is free unless its buffering and sizing are asked to use the library's wire-load model
//! (`buffer -c`, `upsize -c`, `dnsize -c`). OpenSTA counts both: a flip-flop driving 32 latches
//! through an unbuffered net, fine to ABC, costs hundreds of ps there. So when OpenSTA times
//! with a wire-load model the timing-driven flow gives ABC the same model and this file
//! (`read_constr`): every input driven by the library's smallest buffer, every output loaded
//! with one buffer input (about a register's data pin).

use crate::lib_syntax::{self, Group};

/// File name of the constraints in the work folder.
pub const CONSTR_FILE: &str = "abc.constr";

/// The library's smallest buffer (a cell with one input and one output whose function is that
/// input) and its input capacitance.
fn smallest_buffer(text: &str) -> Option<(String, f64)> {
    let maybe = |name: &str| name.to_ascii_lowercase().contains("buf");
    let lib = lib_syntax::parse(text, &maybe).ok()?;
    lib.children("cell")
        .filter_map(|cell: &Group| {
            let pins: Vec<&Group> = cell.children("pin").collect();
            let inputs: Vec<&&Group> = pins
                .iter()
                .filter(|p| p.attr("direction") == Some("input"))
                .collect();
            let outputs: Vec<&&Group> = pins
                .iter()
                .filter(|p| p.attr("direction") == Some("output"))
                .collect();
            let ([input], [output]) = (&inputs[..], &outputs[..]) else {
                return None;
            };
            let name = input.args.first()?;
            if output.attr("function").map(str::trim) != Some(name.as_str()) {
                return None;
            }
            let cap = input.attr("capacitance")?.parse::<f64>().ok()?;
            let area = cell.attr("area")?.parse::<f64>().ok()?;
            Some((area, cell.args.first()?.clone(), cap))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name, cap)| (name, cap))
}

/// The `read_constr` text for the liberty `text`, or an error when it has no buffer.
pub fn constraints(text: &str) -> Result<String, String> {
    let (buffer, cap) = smallest_buffer(text).ok_or(
        "no buffer cell (one input, one output of the same function) to drive ABC's inputs",
    )?;
    Ok(format!("set_driving_cell {buffer}\nset_load {cap}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_buffer_drives_and_loads() {
        let lib = r#"library (l) {
  cell (BUF_X2) { area : 1.3 ; pin (A) { direction : input ; capacitance : 1.7 ; }
    pin (Z) { direction : output ; function : "A" ; } }
  cell (BUF_X1) { area : 0.8 ; pin (A) { direction : input ; capacitance : 0.97 ; }
    pin (Z) { direction : output ; function : "A" ; } }
  cell (CLKBUF_INV) { area : 0.5 ; pin (A) { direction : input ; capacitance : 0.5 ; }
    pin (ZN) { direction : output ; function : "!A" ; } }
  cell (INV_X1) { area : 0.5 ; pin (A) { direction : input ; capacitance : 1.0 ; }
    pin (ZN) { direction : output ; function : "!A" ; } }
}"#;
        assert_eq!(
            constraints(lib).unwrap(),
            "set_driving_cell BUF_X1\nset_load 0.97\n"
        );
        assert!(constraints("library (l) { cell (INV) { } }").is_err());
    }
}
