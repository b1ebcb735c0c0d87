//! Register drive strength for the timing-driven flow.
//!
//! ABC buffers and sizes the logic between registers, never a register itself, and a register
//! output wired straight to other registers' inputs (a latch table's write data, one flip-flop
//! per bit fanning out to every entry's latch) reaches ABC not at all: Yosys hands ABC the
//! logic, and a wire is none. Such a net keeps the smallest flip-flop `dfflibmap` chose. On the
//! D²MA engine's latch table each of 75 write-data `DFF_X1` drives 32 latches: 480 ps from the
//! clock edge to the latches' data pins at NanGate45 with the wire-load model, in the 441 ps
//! the latches leave at 1 GHz (they close at the falling edge); as `DFF_X2`, 304 ps.
//!
//! So in the timing-driven flow OpenSTA's script ([`crate::opensta`]) gives every register
//! whose output drives more than [`FANOUT_LIMIT`] pins the library's next drive strength of
//! the same cell ([`stronger_registers`]: same name stem, `DFF_X1` to `DFF_X2`,
//! `sky130_fd_sc_hd__dfxtp_1` to `_2`), before it times the netlist, and lists each change;
//! the report's cells and area count them.

use crate::lib_syntax;

/// A register output driving more pins than this takes the next drive strength.
pub const FANOUT_LIMIT: usize = 16;

/// A register cell and the library's next drive strength of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stronger {
    /// The cell `dfflibmap` or the latch map chose (`DFF_X1`).
    pub cell: String,
    /// Its next drive strength (`DFF_X2`).
    pub stronger: String,
    /// The two cells' areas, in the library's area unit.
    pub cell_area: f64,
    /// The stronger cell's area.
    pub stronger_area: f64,
}

/// A cell name's stem and drive strength: `DFF_X2` is (`DFF_X`, 2), `..._dfxtp_4` (`..._dfxtp_`,
/// 4); `None` for a name that does not end in a number after `_X` or `_`.
fn stem_and_strength(name: &str) -> Option<(&str, u32)> {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let (stem, n) = name.split_at(name.len() - digits);
    (stem.ends_with("_X") || stem.ends_with('_')).then(|| Some((stem, n.parse().ok()?)))?
}

/// The names of the cells whose body has an `ff (` or `latch (` group (a line scan, so that
/// only those are parsed).
fn register_cell_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("cell") {
            if let Some(args) = rest.trim_start().strip_prefix('(') {
                current = args
                    .split(')')
                    .next()
                    .map(|n| n.trim().trim_matches('"').trim().to_string());
            }
        } else {
            let group = ["ff", "latch"].iter().any(|g| {
                t.strip_prefix(g)
                    .is_some_and(|r| r.trim_start().starts_with('('))
            });
            if group {
                if let Some(n) = current.take() {
                    names.push(n);
                }
            }
        }
    }
    names
}

/// Every register cell of the liberty `text` (flip-flops and latches, `dont_use` ones left
/// out) with the next drive strength the library has of it, by name; cells without a stronger
/// one are not listed.
pub fn stronger_registers(text: &str) -> Result<Vec<Stronger>, String> {
    let names = register_cell_names(text);
    let lib = lib_syntax::parse(text, &|n| names.iter().any(|m| m == n))?;
    let cells: Vec<(String, f64)> = lib
        .children("cell")
        .filter(|c| c.attr("dont_use").map(str::trim) != Some("true"))
        .filter_map(|c| {
            Some((
                c.args.first()?.clone(),
                c.attr("area")?.trim().parse().ok()?,
            ))
        })
        .collect();
    let mut out = Vec::new();
    for (name, area) in &cells {
        let Some((stem, n)) = stem_and_strength(name) else {
            continue;
        };
        let next = cells
            .iter()
            .filter_map(|(m, a)| {
                let (s, k) = stem_and_strength(m)?;
                (s == stem && k > n).then_some((k, m, a))
            })
            .min_by_key(|(k, _, _)| *k);
        if let Some((_, m, a)) = next {
            out.push(Stronger {
                cell: name.clone(),
                stronger: m.clone(),
                cell_area: *area,
                stronger_area: *a,
            });
        }
    }
    out.sort_by(|a, b| a.cell.cmp(&b.cell));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = r#"library (tiny) {
  cell (DFF_X1) { area : 4.5 ;
    ff (IQ, IQN) { next_state : "D" ; clocked_on : "CK" ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (DFF_X2) { area : 5.0 ;
    ff (IQ, IQN) { next_state : "D" ; clocked_on : "CK" ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (DFF_X4) { area : 6.0 ;
    ff (IQ, IQN) { next_state : "D" ; clocked_on : "CK" ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (DLH_X1) { area : 2.6 ;
    latch (IQ, IQN) { data_in : "D" ; enable : "G" ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (DLH_X2) { area : 3.0 ; dont_use : true ;
    latch (IQ, IQN) { data_in : "D" ; enable : "G" ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (x__dfxtp_1) { area : 20.0 ;
    ff (IQ, IQN) { next_state : "D" ; clocked_on : "CLK" ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (x__dfxtp_2) { area : 21.3 ;
    ff (IQ, IQN) { next_state : "D" ; clocked_on : "CLK" ; }
    pin (Q) { direction : output ; function : "IQ" ; } }
  cell (BUF_X1) { area : 0.8 ; pin (A) { direction : input ; } }
  cell (BUF_X2) { area : 1.0 ; pin (A) { direction : input ; } }
}"#;

    #[test]
    fn the_next_strength_of_each_register() {
        let s = stronger_registers(LIB).unwrap();
        let pairs: Vec<(&str, &str)> = s
            .iter()
            .map(|s| (s.cell.as_str(), s.stronger.as_str()))
            .collect();
        // DFF_X1 to X2 (not X4), X2 to X4; the dont_use latch is no choice; buffers are no
        // registers.
        assert_eq!(
            pairs,
            [
                ("DFF_X1", "DFF_X2"),
                ("DFF_X2", "DFF_X4"),
                ("x__dfxtp_1", "x__dfxtp_2")
            ]
        );
        assert_eq!((s[0].cell_area, s[0].stronger_area), (4.5, 5.0));
    }

    #[test]
    fn names_without_a_strength() {
        assert_eq!(stem_and_strength("DFF_X12"), Some(("DFF_X", 12)));
        assert_eq!(stem_and_strength("a__dfxtp_1"), Some(("a__dfxtp_", 1)));
        assert_eq!(stem_and_strength("SRAM512X32"), None);
        assert_eq!(stem_and_strength("LATCH"), None);
    }
}
