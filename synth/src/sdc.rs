//! The constraints OpenSTA times a mapped netlist against, written as an SDC file
//! (`constraints.sdc` in the work folder).
//!
//! One clock, rising edge: on the block's clock port, or a virtual clock (`virtual_clk`) for a
//! combinational block, so that its port-to-port paths have a cycle to fit. Every input but the
//! clock changes at the clock edge (input delay 0: driven by a register outside whose
//! clock-to-Q is not counted, with an ideal, zero-slew driver) and every output is due at the
//! next edge (output delay 0: captured by a register outside with no setup, driving no load).
//! Static inputs (a hasher's configuration, written between kernels) are false paths. The
//! wires: the library's default wire-load model (OpenSTA applies it when the library names
//! one), a model of the library by name, or none (`set_load 0` on every net).

use std::fmt::Write;

use serde::{Deserialize, Serialize};

/// The clock period when none is asked for: 1 GHz, the clock every goal of the project names.
pub const DEFAULT_CLOCK_PS: f64 = 1000.0;

/// The name of the clock of a block without a clock port.
pub const VIRTUAL_CLOCK: &str = "virtual_clk";

/// The file name of the constraints in the work folder.
pub const SDC_FILE: &str = "constraints.sdc";

/// How OpenSTA estimates the capacitance of the nets (there is no placement to extract them
/// from).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WireLoad {
    /// The library's `default_wire_load` model, which OpenSTA applies by itself (none when the
    /// library names none).
    #[default]
    Library,
    /// No wire capacitance: each net loads its driver with its pins alone, as ABC's own timing
    /// counts it (`set_load 0` on every net).
    None,
    /// One of the library's `wire_load` models, by name (`set_wire_load_model`).
    Model(String),
}

impl WireLoad {
    /// Reads a `--wire-load` value: `library`, `none` or a model's name (checked against the
    /// library later).
    pub fn parse(text: &str) -> WireLoad {
        match text {
            "library" => WireLoad::Library,
            "none" => WireLoad::None,
            model => WireLoad::Model(model.to_string()),
        }
    }

    /// The SDC lines that set it up (none for the library's default).
    fn sdc(&self) -> String {
        match self {
            WireLoad::Library => "# Wires: the library's default wire-load model, if it names one \
                                  (OpenSTA applies it).\n"
                .to_string(),
            WireLoad::None => "# Wires: none (no wire capacitance on any net).\n\
                               set_load 0 [get_nets *]\n"
                .to_string(),
            WireLoad::Model(m) => format!(
                "# Wires: the library's wire-load model {m}.\nset_wire_load_model -name {{{m}}}\n"
            ),
        }
    }
}

/// What [`Constraints::sdc`] writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraints {
    /// The clock port (rising edge); `None` for a block without one (a virtual clock).
    pub clock_port: Option<String>,
    /// The clock period in ps.
    pub period_ps: f64,
    /// Input ports held still while the block runs: false paths.
    pub static_inputs: Vec<String>,
    /// How the wires are estimated.
    pub wire_load: WireLoad,
}

impl Constraints {
    /// The clock's name: its port's, or [`VIRTUAL_CLOCK`].
    pub fn clock_name(&self) -> &str {
        self.clock_port.as_deref().unwrap_or(VIRTUAL_CLOCK)
    }

    /// The `create_clock` command with the period given as Tcl text (`1.0`, `$p`).
    pub fn create_clock(&self, period: &str) -> String {
        let name = self.clock_name();
        match &self.clock_port {
            Some(port) => {
                format!("create_clock -name {name} -period {period} [get_ports {{{port}}}]")
            }
            None => format!("create_clock -name {name} -period {period}"),
        }
    }

    /// The SDC text, times in the library's unit of `ps_per_unit` ps (1000 for `1ns`).
    pub fn sdc(&self, ps_per_unit: f64) -> String {
        let name = self.clock_name();
        let mut s = String::from(
            "# Timing constraints of the mapped netlist, written by rtl-gen (synth crate).\n\
             # Times in the library's time unit.\n",
        );
        let period = self.period_ps / ps_per_unit;
        let inputs = match &self.clock_port {
            Some(port) => {
                let _ = writeln!(
                    s,
                    "# The clock: port {port}, rising edge, {} ps.",
                    self.period_ps
                );
                format!("[delete_from_list [all_inputs] [get_ports {{{port}}}]]")
            }
            None => {
                let _ = writeln!(
                    s,
                    "# No clock port: a virtual clock of {} ps times the paths from inputs to \
                     outputs.",
                    self.period_ps
                );
                "[all_inputs]".to_string()
            }
        };
        let _ = writeln!(s, "{}", self.create_clock(&format!("{period}")));
        let _ = write!(
            s,
            "# Inputs change at the clock edge (from a register outside, its clock-to-Q not \
             counted;\n# ideal drivers); outputs are due at the next edge (a register outside \
             with no setup; no load).\n\
             set_input_delay 0 -clock {name} {inputs}\n\
             set_output_delay 0 -clock {name} [all_outputs]\n"
        );
        if !self.static_inputs.is_empty() {
            s.push_str("# Static inputs, held while the block runs: false paths.\n");
            for p in &self.static_inputs {
                let _ = writeln!(s, "set_false_path -from [get_ports {{{p}}}]");
            }
        }
        s.push_str(&self.wire_load.sdc());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocked_block_with_a_static_input() {
        let c = Constraints {
            clock_port: Some("clk_i".into()),
            period_ps: 950.0,
            static_inputs: vec!["cfg_i".into()],
            wire_load: WireLoad::None,
        };
        let sdc = c.sdc(1000.0);
        assert!(sdc.contains("create_clock -name clk_i -period 0.95 [get_ports {clk_i}]\n"));
        assert!(sdc.contains(
            "set_input_delay 0 -clock clk_i [delete_from_list [all_inputs] [get_ports {clk_i}]]\n"
        ));
        assert!(sdc.contains("set_output_delay 0 -clock clk_i [all_outputs]\n"));
        assert!(sdc.contains("set_false_path -from [get_ports {cfg_i}]\n"));
        assert!(sdc.contains("set_load 0 [get_nets *]\n"));
        assert_eq!(
            c.create_clock("$p"),
            "create_clock -name clk_i -period $p [get_ports {clk_i}]"
        );
    }

    #[test]
    fn combinational_block_gets_a_virtual_clock() {
        let c = Constraints {
            clock_port: None,
            period_ps: 250.0,
            static_inputs: vec![],
            wire_load: WireLoad::Model("5K_hvratio_1_1".into()),
        };
        let sdc = c.sdc(1.0);
        assert!(sdc.contains("create_clock -name virtual_clk -period 250\n"));
        assert!(sdc.contains("set_input_delay 0 -clock virtual_clk [all_inputs]\n"));
        assert!(sdc.contains("set_wire_load_model -name {5K_hvratio_1_1}\n"));
        assert!(!sdc.contains("set_false_path"));
        assert!(!Constraints {
            wire_load: WireLoad::Library,
            ..c
        }
        .sdc(1.0)
        .contains("set_load"));
        assert_eq!(WireLoad::parse("none"), WireLoad::None);
        assert_eq!(WireLoad::parse("library"), WireLoad::Library);
        assert_eq!(WireLoad::parse("1K"), WireLoad::Model("1K".into()));
    }
}
