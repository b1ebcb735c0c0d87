//! The non-linear delay model (NLDM) of a liberty library's cells: input pin capacitances and,
//! per output pin, one timing arc per input pin with its delay and output-slew tables.
//!
//! The reading follows ABC's (`src/map/scl/sclLiberty.c`, which `stime` times with), so that
//! [`crate::sta`] reproduces ABC's `stime` on the same netlist:
//!
//! - a pin's load is its `rise_capacitance` / `fall_capacitance`, or `capacitance` where those
//!   are missing or zero;
//! - every `timing ()` group of an output pin that names an input as `related_pin` belongs to
//!   that input's arc; conditional groups (`when`) with the same table indexes are merged into
//!   their element-wise worst case, and groups with other indexes are kept beside it (ABC drops
//!   them; the arc's delay is then the worst of its tables);
//! - a table missing for one edge takes the other edge's (`cell_rise` for `cell_fall`, ...);
//! - the arc's sense is the first group's `timing_sense` (`non_unate` when absent);
//! - only combinational arcs count (no `timing_type`, or `combinational*`); a cell with an
//!   `ff`, `latch` or `statetable` group is sequential: its outputs start paths and its inputs
//!   (other than its clock) end them, as ABC, which only sees the logic between flip-flops,
//!   treats them.
//!
//! Times are converted to ps and capacitances to fF from the library's `time_unit` and
//! `capacitive_load_unit`.

use std::collections::{BTreeMap, BTreeSet};

use crate::lib_syntax::Group;

/// A rise and a fall value.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RiseFall {
    /// The rising-edge value.
    pub rise: f64,
    /// The falling-edge value.
    pub fall: f64,
}

/// A lookup table over input slew (ps) and output load (fF), in ps.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Input-slew breakpoints (one entry `0` when the table does not depend on slew).
    pub slew: Vec<f64>,
    /// Load breakpoints (one entry `0` when the table does not depend on load).
    pub load: Vec<f64>,
    /// `values[s][l]` at `slew[s]`, `load[l]`.
    pub values: Vec<Vec<f64>>,
}

/// The segment of `index` that `x` falls in (the last one beyond the end, the first before the
/// start) and `x`'s position along it; extrapolates linearly outside the table, as ABC does.
fn segment(index: &[f64], x: f64) -> (usize, f64) {
    if index.len() < 2 {
        return (0, 0.0);
    }
    let s = (1..index.len() - 1)
        .find(|&i| index[i] > x)
        .unwrap_or(index.len() - 1)
        - 1;
    let width = index[s + 1] - index[s];
    let frac = if width == 0.0 {
        0.0
    } else {
        (x - index[s]) / width
    };
    (s, frac)
}

impl Table {
    /// The value at `slew` ps and `load` fF: bilinear interpolation between breakpoints,
    /// linear extrapolation beyond them.
    pub fn lookup(&self, slew: f64, load: f64) -> f64 {
        let (s, sf) = segment(&self.slew, slew);
        let (l, lf) = segment(&self.load, load);
        let at = |s: usize| {
            let row = &self.values[s];
            if self.load.len() < 2 {
                row[0]
            } else {
                row[l] + lf * (row[l + 1] - row[l])
            }
        };
        if self.slew.len() < 2 {
            at(0)
        } else {
            let (p0, p1) = (at(s), at(s + 1));
            p0 + sf * (p1 - p0)
        }
    }

    /// Element-wise maximum with `other`, when both have the same breakpoints.
    fn merge_worst(&mut self, other: &Table) -> bool {
        if self.slew != other.slew || self.load != other.load {
            return false;
        }
        for (row, other_row) in self.values.iter_mut().zip(&other.values) {
            for (v, o) in row.iter_mut().zip(other_row) {
                *v = v.max(*o);
            }
        }
        true
    }
}

/// How an output follows an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    /// A rising input can only make the output rise (and falling, fall).
    Positive,
    /// A rising input can only make the output fall.
    Negative,
    /// Either edge can cause either edge (XOR, MUX select).
    Non,
}

/// The four tables of an arc, each possibly several (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Arc {
    /// `timing_sense`.
    pub sense: Sense,
    /// `cell_rise`: delay to a rising output.
    pub cell_rise: Vec<Table>,
    /// `cell_fall`: delay to a falling output.
    pub cell_fall: Vec<Table>,
    /// `rise_transition`: slew of a rising output.
    pub rise_transition: Vec<Table>,
    /// `fall_transition`: slew of a falling output.
    pub fall_transition: Vec<Table>,
}

/// The worst of `tables` at `slew`, `load`.
pub fn worst(tables: &[Table], slew: f64, load: f64) -> f64 {
    tables
        .iter()
        .map(|t| t.lookup(slew, load))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// One cell's timing view.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cell {
    /// Input pins and their capacitance in fF.
    pub inputs: BTreeMap<String, RiseFall>,
    /// Output pins and their arcs, keyed by the input pin they come from.
    pub outputs: BTreeMap<String, BTreeMap<String, Arc>>,
    /// True for flip-flops, latches and other state-holding cells.
    pub sequential: bool,
    /// The clock pins of a sequential cell (`clock : true`), which end no path.
    pub clocks: BTreeSet<String>,
}

/// The cells of one library.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Library {
    /// Cells by name.
    pub cells: BTreeMap<String, Cell>,
}

/// Reads a number of a liberty attribute.
fn number(text: &str, what: &str) -> Result<f64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{what}: `{text}` is not a number"))
}

/// Numbers of a breakpoint or value string (`"0.1, 0.2"`), scaled.
fn numbers(parts: &[String], scale: f64, what: &str) -> Result<Vec<f64>, String> {
    parts
        .iter()
        .flat_map(|p| p.split(',').map(str::trim).filter(|s| !s.is_empty()))
        .map(|s| number(s, what).map(|v| v * scale))
        .collect()
}

/// `1ns` -> 1000 (ps per unit).
fn time_scale(unit: &str) -> Result<f64, String> {
    let u = unit.trim().to_ascii_lowercase();
    let (digits, per) = if let Some(d) = u.strip_suffix("ns") {
        (d, 1000.0)
    } else if let Some(d) = u.strip_suffix("ps") {
        (d, 1.0)
    } else if let Some(d) = u.strip_suffix("us") {
        (d, 1e6)
    } else {
        return Err(format!("time_unit `{unit}` is not in ns, ps or us"));
    };
    let k = if digits.is_empty() {
        1.0
    } else {
        number(digits, "time_unit")?
    };
    Ok(k * per)
}

/// `capacitive_load_unit (1, pf)` -> 1000 (fF per unit).
fn cap_scale(args: &[String]) -> Result<f64, String> {
    let [k, unit] = args else {
        return Err(format!(
            "capacitive_load_unit {args:?} is not (number, unit)"
        ));
    };
    let per = match unit.to_ascii_lowercase().as_str() {
        "ff" => 1.0,
        "pf" => 1000.0,
        other => return Err(format!("capacitive_load_unit `{other}` is not ff or pf")),
    };
    Ok(number(k, "capacitive_load_unit")? * per)
}

/// What a `lu_table_template` says about its axes.
#[derive(Debug, Clone)]
struct Template {
    /// `index_1` is the load (and `index_2`, if any, the slew).
    load_first: bool,
    /// A one-dimensional table over load only.
    load_only: bool,
    index_1: Option<Vec<String>>,
    index_2: Option<Vec<String>>,
}

fn is_slew(variable: &str) -> bool {
    matches!(
        variable,
        "input_net_transition" | "input_transition_time" | "related_pin_transition"
    )
}

/// The library's delay templates by name (those over slew and/or load only).
fn templates(lib: &Group) -> BTreeMap<String, Template> {
    lib.children("lu_table_template")
        .filter_map(|t| {
            let v1 = t.attr("variable_1")?;
            let v2 = t.attr("variable_2");
            let load = |v: &str| v == "total_output_net_capacitance";
            let (load_first, load_only) = match v2 {
                None if is_slew(v1) => (false, false),
                None if load(v1) => (true, true),
                Some(v2) if is_slew(v1) && load(v2) => (false, false),
                Some(v2) if load(v1) && is_slew(v2) => (true, false),
                _ => return None,
            };
            Some((
                t.args.first()?.clone(),
                Template {
                    load_first,
                    load_only,
                    index_1: t.complex_attr("index_1").map(<[String]>::to_vec),
                    index_2: t.complex_attr("index_2").map(<[String]>::to_vec),
                },
            ))
        })
        .collect()
}

struct Units<'a> {
    time: f64,
    cap: f64,
    templates: &'a BTreeMap<String, Template>,
}

impl Units<'_> {
    /// A `cell_rise (template) { index_1 ...; values ...; }` group as a [`Table`].
    fn table(&self, g: &Group) -> Result<Table, String> {
        let what = format!("table {}", g.name);
        let values: Vec<Vec<f64>> = g
            .complex_attr("values")
            .ok_or_else(|| format!("{what} has no values"))?
            .iter()
            .map(|row| numbers(std::slice::from_ref(row), self.time, &what))
            .collect::<Result<_, _>>()?;
        let template = g.args.first().map(String::as_str).unwrap_or("scalar");
        if template == "scalar" {
            let v = *values.first().and_then(|r| r.first()).ok_or(what)?;
            return Ok(Table {
                slew: vec![0.0],
                load: vec![0.0],
                values: vec![vec![v]],
            });
        }
        let t = self
            .templates
            .get(template)
            .ok_or_else(|| format!("{what}: template `{template}` is not a delay template"))?;
        let index = |own: Option<&[String]>, of_template: &Option<Vec<String>>, scale| {
            own.or(of_template.as_deref())
                .map(|p| numbers(p, scale, &what))
                .transpose()
        };
        let i1_scale = if t.load_first { self.cap } else { self.time };
        let i1 = index(g.complex_attr("index_1"), &t.index_1, i1_scale)?;
        let i2_scale = if t.load_first { self.time } else { self.cap };
        let i2 = index(g.complex_attr("index_2"), &t.index_2, i2_scale)?;
        let one = || vec![0.0];
        let flat: Vec<f64> = values.concat();
        let (slew, load, values) = match (t.load_first, t.load_only) {
            (true, true) => (one(), i1.ok_or(what.clone())?, vec![flat.clone()]),
            (false, _) if i2.is_none() => {
                let slew = i1.ok_or(what.clone())?;
                let rows = flat.iter().map(|v| vec![*v]).collect();
                (slew, one(), rows)
            }
            (false, _) => {
                let (slew, load) = (i1.ok_or(what.clone())?, i2.ok_or(what.clone())?);
                let rows = flat
                    .chunks(load.len().max(1))
                    .map(<[f64]>::to_vec)
                    .collect();
                (slew, load, rows)
            }
            (true, false) => {
                let (load, slew) = (i1.ok_or(what.clone())?, i2.ok_or(what.clone())?);
                // values[l][s] in the file: transpose to values[s][l].
                let rows = (0..slew.len())
                    .map(|s| (0..load.len()).map(|l| flat[l * slew.len() + s]).collect())
                    .collect();
                (slew, load, rows)
            }
        };
        if values.len() != slew.len() || values.iter().any(|r| r.len() != load.len()) {
            return Err(format!(
                "{what}: {} values do not fill {} x {} breakpoints",
                flat.len(),
                slew.len(),
                load.len()
            ));
        }
        Ok(Table { slew, load, values })
    }

    /// The first table called `name` in a timing group, else the one called `other`.
    fn table_or(&self, timing: &Group, name: &str, other: &str) -> Result<Option<Table>, String> {
        timing
            .child(name)
            .or_else(|| timing.child(other))
            .map(|g| self.table(g))
            .transpose()
    }
}

fn is_combinational(timing: &Group) -> bool {
    timing
        .attr("timing_type")
        .is_none_or(|t| t.starts_with("combinational"))
}

/// Adds `table` to `tables`, merged into one with the same breakpoints if there is one.
fn add_worst(tables: &mut Vec<Table>, table: Table) {
    if !tables.iter_mut().any(|t| t.merge_worst(&table)) {
        tables.push(table);
    }
}

fn cell(g: &Group, units: &Units) -> Result<Cell, String> {
    let mut cell = Cell {
        sequential: ["ff", "latch", "ff_bank", "latch_bank", "statetable"]
            .iter()
            .any(|s| g.child(s).is_some()),
        ..Cell::default()
    };
    for pin in g.children("pin") {
        let name = pin.args.first().cloned().unwrap_or_default();
        let cap = |attr: &str| -> Result<f64, String> {
            pin.attr(attr)
                .map(|v| number(v, attr))
                .transpose()
                .map(|v| v.unwrap_or(0.0) * units.cap)
        };
        match pin.attr("direction") {
            Some("input") => {
                let one = cap("capacitance")?;
                let or_one = |v: f64| if v == 0.0 { one } else { v };
                cell.inputs.insert(
                    name.clone(),
                    RiseFall {
                        rise: or_one(cap("rise_capacitance")?),
                        fall: or_one(cap("fall_capacitance")?),
                    },
                );
                if pin.attr("clock") == Some("true") {
                    cell.clocks.insert(name);
                }
            }
            Some("output") | Some("inout") => {
                let mut arcs: BTreeMap<String, Arc> = BTreeMap::new();
                for timing in pin.children("timing").filter(|t| is_combinational(t)) {
                    let Some(related) = timing.attr("related_pin") else {
                        continue;
                    };
                    let sense = match timing.attr("timing_sense") {
                        Some("positive_unate") => Sense::Positive,
                        Some("negative_unate") => Sense::Negative,
                        _ => Sense::Non,
                    };
                    let tables = [
                        units.table_or(timing, "cell_rise", "cell_fall")?,
                        units.table_or(timing, "cell_fall", "cell_rise")?,
                        units.table_or(timing, "rise_transition", "fall_transition")?,
                        units.table_or(timing, "fall_transition", "rise_transition")?,
                    ];
                    let [Some(cr), Some(cf), Some(rt), Some(ft)] = tables else {
                        continue;
                    };
                    for input in related.split_whitespace() {
                        let arc = arcs.entry(input.to_string()).or_insert_with(|| Arc {
                            sense,
                            cell_rise: vec![],
                            cell_fall: vec![],
                            rise_transition: vec![],
                            fall_transition: vec![],
                        });
                        add_worst(&mut arc.cell_rise, cr.clone());
                        add_worst(&mut arc.cell_fall, cf.clone());
                        add_worst(&mut arc.rise_transition, rt.clone());
                        add_worst(&mut arc.fall_transition, ft.clone());
                    }
                }
                cell.outputs.insert(name, arcs);
            }
            _ => {}
        }
    }
    Ok(cell)
}

impl Library {
    /// The timing view of the cells of `lib` (a parsed `library` group); cells whose bodies
    /// were skipped by the parser are left out.
    pub fn from_group(lib: &Group) -> Result<Library, String> {
        let time = time_scale(lib.attr("time_unit").unwrap_or("1ns"))?;
        let cap = match lib.complex_attr("capacitive_load_unit") {
            Some(args) => cap_scale(args)?,
            None => 1000.0,
        };
        let templates = templates(lib);
        let units = Units {
            time,
            cap,
            templates: &templates,
        };
        let mut cells = BTreeMap::new();
        for g in lib.children("cell") {
            if g.groups.is_empty() && g.simple.is_empty() {
                continue;
            }
            let name = g.args.first().cloned().unwrap_or_default();
            let c = cell(g, &units).map_err(|e| format!("cell {name}: {e}"))?;
            cells.insert(name, c);
        }
        Ok(Library { cells })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lib_syntax::parse;

    /// A two-cell library small enough to check by hand: an inverter with one 2x2 table per
    /// edge, in ns and pF, and a flip-flop.
    const LIB: &str = r#"library (hand) {
  time_unit : "1ns" ;
  capacitive_load_unit (1, pf) ;
  lu_table_template (t) {
    variable_1 : input_net_transition ; variable_2 : total_output_net_capacitance ;
    index_1 ("0.01, 0.03") ; index_2 ("0.001, 0.003") ;
  }
  lu_table_template (rev) {
    variable_1 : total_output_net_capacitance ; variable_2 : input_net_transition ;
  }
  cell (INV) {
    pin (A) { direction : input ; capacitance : 0.002 ; fall_capacitance : 0.0015 ; }
    pin (Y) { direction : output ; function : "!A" ;
      timing () { related_pin : "A" ; timing_sense : negative_unate ;
        cell_rise (t) { values ("0.010, 0.030", "0.020, 0.040") ; }
        cell_fall (rev) { index_1 ("0.001, 0.003") ; index_2 ("0.01, 0.03") ;
                          values ("0.005, 0.007", "0.009, 0.011") ; }
        rise_transition (t) { values ("0.1, 0.2", "0.3, 0.4") ; }
        fall_transition (scalar) { values ("0.05") ; }
      }
      timing () { related_pin : "A" ; when : "B" ;
        cell_rise (t) { values ("0.012, 0.020", "0.020, 0.050") ; }
        cell_fall (t) { values ("0, 0", "0, 0") ; }
        rise_transition (t) { values ("0, 0", "0, 0") ; }
      }
    }
  }
  cell (FF) {
    ff (IQ, IQN) { next_state : "D" ; clocked_on : "CK" ; }
    pin (D) { direction : input ; capacitance : 0.001 ; }
    pin (CK) { direction : input ; clock : true ; capacitance : 0.001 ; }
    pin (Q) { direction : output ;
      timing () { related_pin : "CK" ; timing_type : rising_edge ;
        cell_rise (scalar) { values ("0.1") ; } cell_fall (scalar) { values ("0.1") ; }
        rise_transition (scalar) { values ("0.1") ; } fall_transition (scalar) { values ("0.1") ; }
      }
    }
  }
}"#;

    fn library() -> Library {
        Library::from_group(&parse(LIB, &|_| true).unwrap()).unwrap()
    }

    #[test]
    fn units_pins_and_senses() {
        let lib = library();
        let inv = &lib.cells["INV"];
        // 0.002 pF = 2 fF; the fall capacitance overrides, the rise falls back to it.
        assert_eq!(
            inv.inputs["A"],
            RiseFall {
                rise: 2.0,
                fall: 1.5
            }
        );
        let arc = &inv.outputs["Y"]["A"];
        assert_eq!(arc.sense, Sense::Negative);
        assert!(!inv.sequential);
        let ff = &lib.cells["FF"];
        assert!(ff.sequential);
        assert_eq!(ff.clocks.iter().collect::<Vec<_>>(), ["CK"]);
        // The clock-to-Q arc is not combinational.
        assert!(ff.outputs["Q"].is_empty());
    }

    #[test]
    fn lookups_by_hand() {
        let arc = &library().cells["INV"].outputs["Y"]["A"];
        // cell_rise: the two `when` groups merged element-wise: [[12, 30], [20, 50]] ps over
        // slew (10, 30) ps x load (1, 3) fF.
        assert_eq!(arc.cell_rise.len(), 1);
        assert_eq!(arc.cell_rise[0].values, [[12.0, 30.0], [20.0, 50.0]]);
        // At a breakpoint, between, and extrapolated below both axes.
        assert_eq!(worst(&arc.cell_rise, 10.0, 1.0), 12.0);
        assert!((worst(&arc.cell_rise, 20.0, 2.0) - 28.0).abs() < 1e-9); // mean of the four
        assert!((worst(&arc.cell_rise, 0.0, 0.0) - 2.0).abs() < 1e-9); // 3 - 0.5 * (5 - 3)
                                                                       // cell_fall came transposed (load first): values[s][l] = [[5, 9], [7, 11]].
        assert_eq!(arc.cell_fall[0].values, [[5.0, 9.0], [7.0, 11.0]]);
        assert_eq!(arc.cell_fall[0].slew, [10.0, 30.0]);
        // fall_transition is a scalar 50 ps wherever it is looked up.
        assert_eq!(worst(&arc.fall_transition, 123.0, 45.0), 50.0);
    }
}
