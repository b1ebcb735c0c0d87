//! Static timing of a mapped netlist, path group by path group: the slowest path from each input
//! port (and from the flip-flops) to the outputs and flip-flop inputs.
//!
//! ABC's `stime` gives one number, the slowest path from any input, and has no timing exceptions
//! (every input arrives at time 0: `Abc_SclTimeCi` in `src/map/scl/sclSize.c`). A bank hasher's
//! configuration is written once per kernel, so its paths do not limit the clock the way the
//! address's do; telling the two apart needs the delay from one input port with the others held
//! still, which is this module's [`analyze`]. It times the netlist Yosys wrote (`write_json`)
//! with the library's tables ([`crate::nldm`]) the way `stime` does, so that the slowest of its
//! groups is `stime`'s number on the same netlist:
//!
//! - every start point (input port bit, flip-flop output) arrives at 0 with a slew of 0; clock-to-Q
//!   and setup are not counted, wires have no load, outputs drive no load;
//! - a net's load is the sum of the input capacitances of the cell pins it drives (flip-flop pins
//!   included, which `stime` does not see);
//! - a cell output's arrival is the worst over its arcs of the input's arrival plus the arc's delay
//!   at the input's slew and the output's load, rise and fall apart, following each arc's sense;
//!   its slew is the worst over all its arcs, whatever their arrival (so it is the same in every
//!   group, as in OpenSTA).
//!
//! A group's delay is then the latest arrival it causes at any end point: the other groups' start
//! points are treated as false paths (`set_false_path -from`), which is exact for an input held
//! constant while the circuit runs.
//!
//! A cell whose type is a black-box module of the netlist (a module with the `blackbox`
//! attribute, such as an SRAM macro's behavioural model marked `(* blackbox *)`) is a register
//! boundary, as ABC sees it: its outputs are start points (group [`MACROS`], arriving at 0 like
//! a flip-flop's Q, the macro's own clock-to-output not counted) and every input bit is an end
//! point (its pin capacitance unknown, so it loads its net with 0 fF, like an output port).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::lib_syntax;
use crate::nldm::{worst, Cell, Library, RiseFall, Sense};

/// The label of the path group that starts at flip-flop outputs.
pub const FLIP_FLOPS: &str = "flip-flops";
/// The label of the path group that starts at the outputs of black-box macros.
pub const MACROS: &str = "macros";

/// The slowest path of one path group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupPath {
    /// Where the group's paths start: an input port's name (`addr_i`), or `flip-flops` for the
    /// outputs of every flip-flop.
    pub from: String,
    /// The latest arrival of the group at any end point (rise or fall), in ps.
    pub delay_ps: f64,
    /// The start bit of the slowest path, e.g. `addr_i[3]`.
    pub start: String,
    /// Its end point: an output port bit (`bank_o[2]`) or a flip-flop pin. A flip-flop (or
    /// latch) is named by the register bit its output drives where the netlist keeps that name
    /// (`u_agen.saddr_q[15].D`; flattened hierarchy joined by dots), else by its cell
    /// (`<cell>.D`); a flip-flop start point likewise (`u_agen.col_left_q[1].QN`).
    pub end: String,
    /// Library cells along it.
    pub cells: u32,
}

/// A bit of a Yosys JSON netlist: a net number or a constant (`"0"`, `"1"`, `"x"`, `"z"`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Bit {
    Net(usize),
    Const(serde::de::IgnoredAny),
}

#[derive(Debug, Deserialize)]
struct JsonDesign {
    modules: BTreeMap<String, JsonModule>,
}

#[derive(Debug, Deserialize)]
struct JsonModule {
    /// Yosys attributes: a black box has `blackbox`.
    #[serde(default)]
    attributes: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    ports: BTreeMap<String, JsonPort>,
    #[serde(default)]
    cells: BTreeMap<String, JsonCell>,
    /// Named nets: a register's name survives mapping on the net its flip-flop drives.
    #[serde(default)]
    netnames: BTreeMap<String, JsonNet>,
}

#[derive(Debug, Deserialize)]
struct JsonNet {
    bits: Vec<Bit>,
}

#[derive(Debug, Deserialize)]
struct JsonPort {
    direction: String,
    bits: Vec<Bit>,
}

#[derive(Debug, Deserialize)]
struct JsonCell {
    #[serde(rename = "type")]
    cell_type: String,
    /// Pin directions (`input`, `output`), which Yosys writes for black-box cells.
    #[serde(default)]
    port_directions: BTreeMap<String, String>,
    connections: BTreeMap<String, Vec<Bit>>,
}

/// `name[i]`, or `name` for a one-bit port.
fn bit_name(name: &str, i: usize, width: usize) -> String {
    if width == 1 {
        name.to_string()
    } else {
        format!("{name}[{i}]")
    }
}

/// Who drives a net.
#[derive(Debug, Clone)]
enum Driver {
    /// A start point: its group index and its printed name.
    Start(usize, String),
    /// Output `pin` of combinational cell `cell`.
    Cell(usize, String),
}

/// The netlist as timing sees it.
struct Graph<'a> {
    cells: Vec<(&'a JsonCell, &'a Cell)>,
    drivers: BTreeMap<usize, Driver>,
    load: BTreeMap<usize, RiseFall>,
    /// End points: net and printed name.
    ends: Vec<(usize, String)>,
    /// Group labels, indexed by [`Driver::Start`].
    groups: Vec<String>,
}

fn net(bit: &Bit) -> Option<usize> {
    match bit {
        Bit::Net(n) => Some(*n),
        Bit::Const(_) => None,
    }
}

/// The name a reader knows each named net bit by: of the netlist's names that are not Yosys'
/// own (`$...`), the one with the fewest hierarchy levels, then the shortest, then the first
/// in order (so a register's own name wins over the ports of the submodules it feeds).
fn public_names(module: &JsonModule) -> BTreeMap<usize, String> {
    let mut names: BTreeMap<usize, String> = BTreeMap::new();
    let rank = |s: &str| (s.matches('.').count(), s.len());
    for (name, n) in &module.netnames {
        if name.starts_with('$') {
            continue;
        }
        for (i, bit) in n.bits.iter().enumerate() {
            let Some(b) = net(bit) else { continue };
            let candidate = bit_name(name, i, n.bits.len());
            match names.get(&b) {
                Some(old) if rank(old) <= rank(&candidate) => {}
                _ => {
                    names.insert(b, candidate);
                }
            }
        }
    }
    names
}

/// What a sequential cell is called in paths: the register bit its first named output drives
/// (`Q` before `QN`), else the cell's own name.
fn register_name(
    cell_name: &str,
    jc: &JsonCell,
    cell: &Cell,
    names: &BTreeMap<usize, String>,
) -> String {
    cell.outputs
        .keys()
        .filter_map(|pin| jc.connections.get(pin)?.first().and_then(net))
        .find_map(|n| names.get(&n).cloned())
        .unwrap_or_else(|| cell_name.to_string())
}

/// Builds the timing graph of `module`; cells whose type is in `macros` (black-box modules) are
/// register boundaries.
fn graph<'a>(
    module: &'a JsonModule,
    lib: &'a Library,
    macros: &BTreeSet<&str>,
) -> Result<Graph<'a>, String> {
    let names = public_names(module);
    let mut g = Graph {
        cells: Vec::new(),
        drivers: BTreeMap::new(),
        load: BTreeMap::new(),
        ends: Vec::new(),
        groups: Vec::new(),
    };
    let group_of =
        |label: &str, groups: &mut Vec<String>| match groups.iter().position(|l| l == label) {
            Some(i) => i,
            None => {
                groups.push(label.to_string());
                groups.len() - 1
            }
        };
    for (name, port) in &module.ports {
        let width = port.bits.len();
        for (i, bit) in port.bits.iter().enumerate() {
            let Some(n) = net(bit) else { continue };
            if matches!(port.direction.as_str(), "input" | "inout") {
                let group = group_of(name, &mut g.groups);
                g.drivers
                    .insert(n, Driver::Start(group, bit_name(name, i, width)));
            }
            if matches!(port.direction.as_str(), "output" | "inout") {
                g.ends.push((n, bit_name(name, i, width)));
            }
        }
    }
    for (cell_name, jc) in &module.cells {
        if macros.contains(jc.cell_type.as_str()) {
            for (pin, bits) in &jc.connections {
                let output = jc.port_directions.get(pin).map(String::as_str) == Some("output");
                for (i, bit) in bits.iter().enumerate() {
                    let Some(n) = net(bit) else { continue };
                    let name = format!("{cell_name}.{}", bit_name(pin, i, bits.len()));
                    if output {
                        let group = group_of(MACROS, &mut g.groups);
                        g.drivers.insert(n, Driver::Start(group, name));
                    } else {
                        g.ends.push((n, name));
                    }
                }
            }
            continue;
        }
        let cell = lib.cells.get(&jc.cell_type).ok_or_else(|| {
            format!(
                "cell {cell_name} is a {}, which the library does not have",
                jc.cell_type
            )
        })?;
        let index = g.cells.len();
        g.cells.push((jc, cell));
        let shown = if cell.sequential {
            register_name(cell_name, jc, cell, &names)
        } else {
            String::new()
        };
        for (pin, bits) in &jc.connections {
            let Some(n) = bits.first().and_then(net) else {
                continue;
            };
            if let Some(cap) = cell.inputs.get(pin) {
                let l = g.load.entry(n).or_default();
                l.rise += cap.rise;
                l.fall += cap.fall;
                if cell.sequential && !cell.clocks.contains(pin) {
                    g.ends.push((n, format!("{shown}.{pin}")));
                }
            } else if cell.outputs.contains_key(pin) {
                let driver = if cell.sequential {
                    let group = group_of(FLIP_FLOPS, &mut g.groups);
                    Driver::Start(group, format!("{shown}.{pin}"))
                } else {
                    Driver::Cell(index, pin.clone())
                };
                g.drivers.insert(n, driver);
            }
        }
    }
    Ok(g)
}

/// The input nets of combinational output `pin` of cell `index`, with their arcs.
fn arcs<'g>(
    g: &'g Graph,
    index: usize,
    pin: &str,
) -> impl Iterator<Item = (usize, &'g crate::nldm::Arc)> + 'g {
    let (jc, cell) = g.cells[index];
    cell.outputs[pin].iter().filter_map(move |(input, arc)| {
        let n = jc.connections.get(input)?.first().and_then(net)?;
        Some((n, arc))
    })
}

/// Nets in an order where every cell output comes after the nets its arcs read.
fn topological(g: &Graph) -> Result<Vec<usize>, String> {
    let mut order = Vec::with_capacity(g.drivers.len());
    // 0: not seen, 1: on the stack, 2: done.
    let mut state: BTreeMap<usize, u8> = BTreeMap::new();
    for &root in g.drivers.keys() {
        let mut stack = vec![(root, false)];
        while let Some((n, expanded)) = stack.pop() {
            if expanded {
                state.insert(n, 2);
                order.push(n);
                continue;
            }
            match state.get(&n) {
                Some(2) => continue,
                Some(1) => return Err(format!("combinational loop through net {n}")),
                _ => {}
            }
            state.insert(n, 1);
            stack.push((n, true));
            if let Some(Driver::Cell(index, pin)) = g.drivers.get(&n) {
                for (input, _) in arcs(g, *index, pin) {
                    match state.get(&input) {
                        Some(2) => {}
                        Some(1) => return Err(format!("combinational loop through net {input}")),
                        _ => stack.push((input, false)),
                    }
                }
            }
        }
    }
    Ok(order)
}

/// Output slews of every net, independent of arrival.
fn slews(g: &Graph, order: &[usize]) -> BTreeMap<usize, RiseFall> {
    let mut slew: BTreeMap<usize, RiseFall> = BTreeMap::new();
    for &n in order {
        let Some(Driver::Cell(index, pin)) = g.drivers.get(&n) else {
            slew.insert(n, RiseFall::default());
            continue;
        };
        let load = g.load.get(&n).copied().unwrap_or_default();
        let mut out = RiseFall::default();
        for (input, arc) in arcs(g, *index, pin) {
            let s = slew.get(&input).copied().unwrap_or_default();
            let (from_rise, from_fall) = match arc.sense {
                Sense::Positive => (vec![s.rise], vec![s.fall]),
                Sense::Negative => (vec![s.fall], vec![s.rise]),
                Sense::Non => (vec![s.rise, s.fall], vec![s.fall, s.rise]),
            };
            for s_in in from_rise {
                out.rise = out.rise.max(worst(&arc.rise_transition, s_in, load.rise));
            }
            for s_in in from_fall {
                out.fall = out.fall.max(worst(&arc.fall_transition, s_in, load.fall));
            }
        }
        slew.insert(n, out);
    }
    slew
}

/// An arrival and where it came from: (input net, input edge is rise).
#[derive(Debug, Clone, Copy)]
struct Arrival {
    time: f64,
    from: Option<(usize, bool)>,
}

const NEVER: Arrival = Arrival {
    time: f64::NEG_INFINITY,
    from: None,
};

/// Arrivals (rise, fall) of every net when only group `group`'s start points switch.
fn arrivals(
    g: &Graph,
    order: &[usize],
    slew: &BTreeMap<usize, RiseFall>,
    group: usize,
) -> BTreeMap<usize, [Arrival; 2]> {
    let mut arr: BTreeMap<usize, [Arrival; 2]> = BTreeMap::new();
    for &n in order {
        let value = match g.drivers.get(&n) {
            Some(Driver::Start(gr, _)) if *gr == group => {
                let zero = Arrival {
                    time: 0.0,
                    from: None,
                };
                [zero, zero]
            }
            Some(Driver::Cell(index, pin)) => {
                let load = g.load.get(&n).copied().unwrap_or_default();
                let mut out = [NEVER, NEVER];
                for (input, arc) in arcs(g, *index, pin) {
                    let a = arr.get(&input).copied().unwrap_or([NEVER, NEVER]);
                    let s = slew.get(&input).copied().unwrap_or_default();
                    // (output edge is rise, input edge is rise)
                    let edges: &[(bool, bool)] = match arc.sense {
                        Sense::Positive => &[(true, true), (false, false)],
                        Sense::Negative => &[(true, false), (false, true)],
                        Sense::Non => &[(true, true), (false, false), (true, false), (false, true)],
                    };
                    for &(out_rise, in_rise) in edges {
                        let a_in = a[usize::from(!in_rise)];
                        if a_in.time == f64::NEG_INFINITY {
                            continue;
                        }
                        let s_in = if in_rise { s.rise } else { s.fall };
                        let (tables, l) = if out_rise {
                            (&arc.cell_rise, load.rise)
                        } else {
                            (&arc.cell_fall, load.fall)
                        };
                        let t = a_in.time + worst(tables, s_in, l);
                        let o = &mut out[usize::from(!out_rise)];
                        if t > o.time {
                            *o = Arrival {
                                time: t,
                                from: Some((input, in_rise)),
                            };
                        }
                    }
                }
                out
            }
            _ => [NEVER, NEVER],
        };
        arr.insert(n, value);
    }
    arr
}

/// The slowest path of every path group that reaches an end point, in the order the groups
/// were found (input ports by name, then flip-flops).
fn analyze_graph(g: &Graph) -> Result<Vec<GroupPath>, String> {
    let order = topological(g)?;
    let slew = slews(g, &order);
    let mut paths = Vec::new();
    for (group, label) in g.groups.iter().enumerate() {
        let arr = arrivals(g, &order, &slew, group);
        let mut best: Option<(f64, usize, bool, &str)> = None;
        for (n, end) in &g.ends {
            let Some(a) = arr.get(n) else { continue };
            for (edge, rise) in [(a[0], true), (a[1], false)] {
                if edge.time > best.map_or(f64::NEG_INFINITY, |b| b.0) {
                    best = Some((edge.time, *n, rise, end));
                }
            }
        }
        let Some((delay, mut n, mut rise, end)) = best else {
            continue;
        };
        let mut cells = 0u32;
        while let Some((input, in_rise)) = arr[&n][usize::from(!rise)].from {
            cells += 1;
            (n, rise) = (input, in_rise);
        }
        let start = match g.drivers.get(&n) {
            Some(Driver::Start(_, name)) => name.clone(),
            _ => format!("net {n}"),
        };
        paths.push(GroupPath {
            from: label.clone(),
            delay_ps: delay,
            start,
            end: end.to_string(),
            cells,
        });
    }
    Ok(paths)
}

/// Times module `top` of a Yosys `write_json` netlist against the liberty text `liberty`
/// (parsing only the cells the netlist uses) and returns the slowest path of every path group.
///
/// Errors say what is wrong: malformed JSON, a missing module or cell, malformed liberty, a
/// combinational loop.
pub fn analyze(liberty: &str, netlist_json: &str, top: &str) -> Result<Vec<GroupPath>, String> {
    let design: JsonDesign =
        serde_json::from_str(netlist_json).map_err(|e| format!("netlist JSON: {e}"))?;
    let top = top.trim_start_matches('\\');
    let module = design
        .modules
        .get(top)
        .ok_or_else(|| format!("module {top} is not in the netlist"))?;
    let used: BTreeSet<&str> = module
        .cells
        .values()
        .map(|c| c.cell_type.as_str())
        .collect();
    let macros: BTreeSet<&str> = design
        .modules
        .iter()
        .filter(|(_, m)| m.attributes.contains_key("blackbox"))
        .map(|(name, _)| name.as_str())
        .collect();
    let group = lib_syntax::parse(liberty, &|c| used.contains(c) && !macros.contains(c))?;
    let lib = Library::from_group(&group)?;
    analyze_graph(&graph(module, &lib, &macros)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An inverter whose delay is `10 ps + 2 ps/fF x load` on both edges (flat in slew, a
    /// 2x2 table extrapolated linearly), 1 fF inputs, and a flip-flop with 3 fF on D.
    const LIB: &str = r#"library (hand) {
  time_unit : "1ps" ; capacitive_load_unit (1, ff) ;
  lu_table_template (t) {
    variable_1 : input_net_transition ; variable_2 : total_output_net_capacitance ;
    index_1 ("0, 100") ; index_2 ("0, 10") ;
  }
  cell (INV) {
    pin (A) { direction : input ; capacitance : 1 ; }
    pin (Y) { direction : output ;
      timing () { related_pin : "A" ; timing_sense : negative_unate ;
        cell_rise (t) { values ("10, 30", "10, 30") ; } cell_fall (t) { values ("10, 30", "10, 30") ; }
        rise_transition (t) { values ("5, 5", "5, 5") ; } fall_transition (t) { values ("5, 5", "5, 5") ; }
      }
    }
  }
  cell (XOR) {
    pin (A) { direction : input ; capacitance : 1 ; }
    pin (B) { direction : input ; capacitance : 1 ; }
    pin (Y) { direction : output ;
      timing () { related_pin : "A" ; timing_sense : non_unate ;
        cell_rise (t) { values ("20, 20", "20, 20") ; } cell_fall (t) { values ("20, 20", "20, 20") ; }
        rise_transition (t) { values ("5, 5", "5, 5") ; } fall_transition (t) { values ("5, 5", "5, 5") ; }
      }
      timing () { related_pin : "B" ; timing_sense : non_unate ;
        cell_rise (t) { values ("20, 20", "20, 20") ; } cell_fall (t) { values ("20, 20", "20, 20") ; }
        rise_transition (t) { values ("5, 5", "5, 5") ; } fall_transition (t) { values ("5, 5", "5, 5") ; }
      }
    }
  }
  cell (DFF) { ff (IQ, IQN) { next_state : "D" ; clocked_on : "CK" ; }
    pin (D) { direction : input ; capacitance : 3 ; }
    pin (CK) { direction : input ; capacitance : 1 ; clock : true ; }
    pin (Q) { direction : output ; }
  }
}"#;

    /// y = !(!(a) ^ c) and a flip-flop q <= !a clocked by clk, its Q on output r: nets 2 = a,
    /// 3 = c, 4 = y, 5 = !a, 6 = !!a... see the cells.
    const NETLIST: &str = r#"{"modules": {"top": {
  "ports": {
    "a": {"direction": "input", "bits": [2]},
    "c": {"direction": "input", "bits": [3]},
    "clk": {"direction": "input", "bits": [9]},
    "y": {"direction": "output", "bits": [6]},
    "r": {"direction": "output", "bits": [8, "0"]}
  },
  "cells": {
    "i1": {"type": "INV", "connections": {"A": [2], "Y": [4]}},
    "x1": {"type": "XOR", "connections": {"A": [4], "B": [3], "Y": [5]}},
    "i2": {"type": "INV", "connections": {"A": [5], "Y": [6]}},
    "f1": {"type": "DFF", "connections": {"D": [4], "CK": [9], "Q": [8]}}
  }
}}}"#;

    #[test]
    fn groups_by_hand() {
        let paths = analyze(LIB, NETLIST, "top").unwrap();
        let by: BTreeMap<&str, &GroupPath> = paths.iter().map(|p| (p.from.as_str(), p)).collect();
        assert_eq!(
            by.keys().copied().collect::<Vec<_>>(),
            ["a", "c", "flip-flops"]
        );
        // i1 drives x1.A (1 fF) and f1.D (3 fF): 10 + 2 x 4 = 18 ps; x1 drives i2 (1 fF):
        // 20 ps (flat); i2 drives only the output port (0 fF): 10 ps. a -> y = 48 ps, 3 cells.
        let a = by["a"];
        assert!((a.delay_ps - 48.0).abs() < 1e-9, "{a:?}");
        assert_eq!((a.start.as_str(), a.end.as_str(), a.cells), ("a", "y", 3));
        // c -> y skips the first inverter: 30 ps, 2 cells.
        let c = by["c"];
        assert!((c.delay_ps - 30.0).abs() < 1e-9, "{c:?}");
        assert_eq!(c.cells, 2);
        // The flip-flop's Q goes straight to r[0]: a path of no cells; r[1] is a constant.
        let f = by["flip-flops"];
        assert_eq!(
            (f.delay_ps, f.start.as_str(), f.end.as_str(), f.cells),
            (0.0, "f1.Q", "r[0]", 0)
        );
        // clk reaches only a clock pin: no group.
    }

    #[test]
    fn flip_flops_are_named_by_their_register() {
        // The same netlist with the names Yosys keeps: the flip-flop's output net 8 is the
        // register `state_q` (and a submodule's port, and a name of Yosys' own).
        let named = NETLIST.replace(
            "\"cells\": {",
            r#""netnames": {
    "$abc$12$new_n8_": {"hide_name": 1, "bits": [8]},
    "u_sub.q_i": {"hide_name": 0, "bits": [8]},
    "state_q": {"hide_name": 0, "bits": [8, 3]}
  },
  "cells": {"#,
        );
        let paths = analyze(LIB, &named, "top").unwrap();
        let f = paths.iter().find(|p| p.from == FLIP_FLOPS).unwrap();
        assert_eq!((f.start.as_str(), f.end.as_str()), ("state_q[0].Q", "r[0]"));
        // The flip-flop's D, an end point of the input groups, is named by its register too.
        let design: JsonDesign = serde_json::from_str(&named).unwrap();
        let lib = Library::from_group(&lib_syntax::parse(LIB, &|_| true).unwrap()).unwrap();
        let g = graph(&design.modules["top"], &lib, &BTreeSet::new()).unwrap();
        let ends: Vec<&str> = g.ends.iter().map(|(_, e)| e.as_str()).collect();
        assert_eq!(ends, ["r[0]", "y", "state_q[0].D"]);
    }

    /// A black-box macro `sram` (two-bit address, one-bit read data): input `a` reaches its
    /// `addr_i[1]` through an inverter, its `rdata_o` reaches output `y` through another.
    const MACRO_NETLIST: &str = r#"{"modules": {
  "sram": {"attributes": {"blackbox": "00000000000000000000000000000001"},
    "ports": {"addr_i": {"direction": "input", "bits": [2, 3]},
              "rdata_o": {"direction": "output", "bits": [4]}}},
  "top": {
    "ports": {
      "a": {"direction": "input", "bits": [2]},
      "y": {"direction": "output", "bits": [6]}
    },
    "cells": {
      "i1": {"type": "INV", "connections": {"A": [2], "Y": [3]}},
      "m1": {"type": "sram", "port_directions": {"addr_i": "input", "rdata_o": "output"},
             "connections": {"addr_i": ["0", 3], "rdata_o": [4]}},
      "i2": {"type": "INV", "connections": {"A": [4], "Y": [6]}}
    }
  }
}}"#;

    #[test]
    fn black_box_macros_are_register_boundaries() {
        let paths = analyze(LIB, MACRO_NETLIST, "top").unwrap();
        let by: BTreeMap<&str, &GroupPath> = paths.iter().map(|p| (p.from.as_str(), p)).collect();
        assert_eq!(by.keys().copied().collect::<Vec<_>>(), ["a", MACROS]);
        // a -> i1 -> m1.addr_i[1]: the macro's pin loads 0 fF, so 10 ps, and the path ends
        // there (it does not run on through the macro to y).
        let a = by["a"];
        assert_eq!(
            (a.delay_ps, a.start.as_str(), a.end.as_str(), a.cells),
            (10.0, "a", "m1.addr_i[1]", 1)
        );
        // m1.rdata_o starts a path at 0: i2 into the output port, 10 ps.
        let m = by[MACROS];
        assert_eq!(
            (m.delay_ps, m.start.as_str(), m.end.as_str(), m.cells),
            (10.0, "m1.rdata_o", "y", 1)
        );
    }

    #[test]
    fn loops_and_unknown_cells_are_errors() {
        let looped = NETLIST.replace(r#""A": [2], "Y": [4]"#, r#""A": [6], "Y": [4]"#);
        let e = analyze(LIB, &looped, "top").unwrap_err();
        assert!(e.contains("combinational loop"), "{e}");
        let unknown = NETLIST.replace(r#""type": "XOR""#, r#""type": "NAND9""#);
        let e = analyze(LIB, &unknown, "top").unwrap_err();
        assert!(e.contains("x1 is a NAND9"), "{e}");
        let e = analyze(LIB, NETLIST, "other").unwrap_err();
        assert!(e.contains("module other"), "{e}");
    }
}
