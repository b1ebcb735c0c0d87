//! The DUT's interface as a testbench sees it ([`Harness`]) and the vectors it is checked with
//! ([`Vector`]).
//!
//! This crate knows nothing about hashers: a caller describes which ports to drive and check and
//! how outputs follow inputs in time, and supplies vectors its golden model computed.

use crate::error::Error;
use hdl_util::Bits;

/// One port of the DUT that the testbench drives or checks (never `clk_i` / `rst_ni`, which the
/// testbench generates itself for pipelined DUTs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortSpec {
    /// The port's name in the DUT, e.g. `addr_i`.
    pub name: String,
    /// Its width in bits (at least 1).
    pub width: usize,
    /// For an output made of equal lanes, one per bit of another output (say a guard per
    /// table entry, and the entries' busy bits): that output's name. Lane `k` (bits
    /// `k * w .. k * w + w - 1`, `w` = this width / that width) is checked only where bit `k`
    /// of that output is expected 1, and is a don't-care elsewhere, so the DUT may show
    /// anything there, `x` included. `None`: every bit is checked.
    pub checked_where: Option<String>,
}

impl PortSpec {
    /// A port named `name`, `width` bits wide, every bit checked.
    pub fn new(name: impl Into<String>, width: usize) -> PortSpec {
        PortSpec {
            name: name.into(),
            width,
            checked_where: None,
        }
    }

    /// This output, its lanes checked only where the lane's bit of output `qualifier` is
    /// expected 1 (see [`PortSpec::checked_where`]).
    pub fn checked_where(self, qualifier: impl Into<String>) -> PortSpec {
        PortSpec {
            checked_where: Some(qualifier.into()),
            ..self
        }
    }
}

/// How the DUT's outputs relate to its inputs in time. Serialized as
/// `{"kind": "combinational"}`, `{"kind": "clocked"}` or `{"kind": "pipelined", "latency": 1}`
/// (a block manifest records it so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Timing {
    /// Outputs are a pure function of the current inputs; no clock, no reset.
    Combinational,
    /// Outputs are registered: the DUT has `clk_i` and an active-low asynchronous `rst_ni`, and
    /// the output for the inputs sampled at clock edge `i` is visible after edge
    /// `i + latency - 1` (so `latency: 1` is one register stage). `latency` is at least 1.
    Pipelined {
        /// Clock edges from sampling an input to seeing its output (at least 1).
        latency: u32,
    },
    /// The DUT has `clk_i`, an active-low asynchronous `rst_ni` and state a rising edge updates
    /// (a register file, say), but its checked outputs are combinational: each vector's inputs
    /// are applied after a falling edge and its outputs checked before the next rising edge,
    /// which then commits whatever the inputs write. The golden model must therefore give each
    /// vector's outputs from the state before that vector's edge.
    Clocked,
}

/// The DUT's interface as the testbench sees it: its module name, the ports to drive and
/// check (in the order vectors list their values) and its timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Harness {
    /// The DUT's module name; the testbench is `tb_<dut>`.
    pub dut: String,
    /// Ports the testbench drives, in [`Vector::inputs`] order.
    pub inputs: Vec<PortSpec>,
    /// Ports the testbench checks, in [`Vector::expected`] order.
    pub outputs: Vec<PortSpec>,
    /// How outputs follow inputs in time.
    pub timing: Timing,
}

impl Harness {
    /// The total width of all inputs: the width of one stimulus line.
    pub fn input_width(&self) -> usize {
        self.inputs.iter().map(|p| p.width).sum()
    }

    /// The total width of all outputs: the width of one expected line.
    pub fn output_width(&self) -> usize {
        self.outputs.iter().map(|p| p.width).sum()
    }

    /// Whether some output is checked only in part ([`PortSpec::checked_where`]).
    pub fn has_dont_cares(&self) -> bool {
        self.outputs.iter().any(|p| p.checked_where.is_some())
    }

    /// The testbench's top module name, `tb_<dut>`.
    pub fn top(&self) -> String {
        format!("tb_{}", self.dut)
    }

    /// Check that a testbench can be generated for this harness: names are plain Verilog
    /// identifiers, unique, not the clock/reset or the testbench's own `tb_*` names, widths are
    /// at least 1, there is at least one input and one output, and a pipeline has latency >= 1.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |msg: String| Err(Error::InvalidHarness(msg));
        if !is_identifier(&self.dut) {
            return bad(format!(
                "DUT name `{}` is not a plain Verilog identifier",
                self.dut
            ));
        }
        if self.inputs.is_empty() {
            return bad(format!("DUT `{}` has no inputs to drive", self.dut));
        }
        if self.outputs.is_empty() {
            return bad(format!("DUT `{}` has no outputs to check", self.dut));
        }
        if let Timing::Pipelined { latency: 0 } = self.timing {
            return bad("a pipelined DUT needs latency >= 1 (use Timing::Combinational)".into());
        }
        let mut seen = std::collections::BTreeSet::new();
        for port in self.inputs.iter().chain(&self.outputs) {
            if !is_identifier(&port.name) {
                return bad(format!(
                    "port name `{}` is not a plain Verilog identifier",
                    port.name
                ));
            }
            if port.name == "clk_i" || port.name == "rst_ni" {
                return bad(format!(
                    "port `{}` is generated by the testbench; leave it out of the harness",
                    port.name
                ));
            }
            if port.name.starts_with("tb_") {
                return bad(format!(
                    "port name `{}` collides with the testbench's own `tb_*` names",
                    port.name
                ));
            }
            if port.width == 0 {
                return bad(format!("port `{}` has width 0", port.name));
            }
            if !seen.insert(port.name.as_str()) {
                return bad(format!("port `{}` is listed twice", port.name));
            }
        }
        if let Some(port) = self.inputs.iter().find(|p| p.checked_where.is_some()) {
            return bad(format!(
                "input `{}` has a qualifier: only outputs are checked",
                port.name
            ));
        }
        for port in &self.outputs {
            let Some(name) = &port.checked_where else {
                continue;
            };
            let qualifier = self.outputs.iter().find(|q| &q.name == name);
            match qualifier {
                Some(q) if q.checked_where.is_none() && port.width % q.width == 0 => {}
                _ => {
                    return bad(format!(
                        "output `{}` is checked where `{name}` is 1: that must be another \
                         output, checked whole, whose width divides {}",
                        port.name, port.width
                    ))
                }
            }
        }
        Ok(())
    }

    /// Check that `vector` (number `index`) has one value per port with the port's width.
    pub fn check_vector(&self, index: usize, vector: &Vector) -> Result<(), Error> {
        let check = |what: &str, ports: &[PortSpec], values: &[Bits]| {
            if ports.len() != values.len() {
                return Err(Error::InvalidVector {
                    index,
                    reason: format!(
                        "{} {what} values for {} {what} ports",
                        values.len(),
                        ports.len()
                    ),
                });
            }
            for (port, value) in ports.iter().zip(values) {
                if port.width != value.width() {
                    return Err(Error::InvalidVector {
                        index,
                        reason: format!(
                            "{what} `{}` is {} bits wide but its value has {} bits",
                            port.name,
                            port.width,
                            value.width()
                        ),
                    });
                }
            }
            Ok(())
        };
        check("input", &self.inputs, &vector.inputs)?;
        check("output", &self.outputs, &vector.expected)
    }
}

/// One stimulus and the outputs the golden model expects for it, in the same order as
/// [`Harness::inputs`] and [`Harness::outputs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vector {
    /// One value per input port.
    pub inputs: Vec<Bits>,
    /// One value per output port: what the golden model says the DUT must produce.
    pub expected: Vec<Bits>,
}

/// Whether `name` is a plain (unescaped) Verilog identifier.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn harness() -> Harness {
        Harness {
            dut: "mix".into(),
            inputs: vec![PortSpec::new("a_i", 8), PortSpec::new("b_i", 3)],
            outputs: vec![PortSpec::new("y_o", 8)],
            timing: Timing::Combinational,
        }
    }

    #[test]
    fn good_harness_validates() {
        let h = harness();
        h.validate().unwrap();
        assert_eq!((h.input_width(), h.output_width()), (11, 8));
        assert_eq!(h.top(), "tb_mix");
    }

    #[test]
    fn bad_harnesses_are_rejected() {
        let mut h = harness();
        h.inputs[1].name = "a_i".into();
        assert!(h.validate().unwrap_err().to_string().contains("twice"));

        let mut h = harness();
        h.inputs.push(PortSpec::new("clk_i", 1));
        assert!(h.validate().is_err());

        let mut h = harness();
        h.outputs[0].width = 0;
        assert!(h.validate().is_err());

        let mut h = harness();
        h.dut = "9lives".into();
        assert!(h.validate().is_err());

        let mut h = harness();
        h.timing = Timing::Pipelined { latency: 0 };
        assert!(h.validate().is_err());

        // A qualifier must be another output, checked whole, whose width divides the port's.
        for qualifier in ["nope_o", "y_o", "a_i"] {
            let mut h = harness();
            h.outputs[0] = h.outputs[0].clone().checked_where(qualifier);
            let err = h.validate().unwrap_err().to_string();
            assert!(err.contains("`y_o` is checked where"), "{err}");
        }
        let mut h = harness();
        h.outputs.push(PortSpec::new("v_o", 3));
        h.outputs[0] = h.outputs[0].clone().checked_where("v_o");
        assert!(h.validate().is_err(), "3 lanes do not divide 8 bits");
        h.outputs[1].width = 2;
        h.validate().unwrap();
        h.inputs[0] = h.inputs[0].clone().checked_where("v_o");
        assert!(h
            .validate()
            .unwrap_err()
            .to_string()
            .contains("input `a_i`"));
    }

    #[test]
    fn vectors_must_match_port_widths() {
        let h = harness();
        let good = Vector {
            inputs: vec![Bits::zero(8), Bits::zero(3)],
            expected: vec![Bits::zero(8)],
        };
        h.check_vector(0, &good).unwrap();
        let mut bad = good.clone();
        bad.inputs[1] = Bits::zero(4);
        let err = h.check_vector(7, &bad).unwrap_err().to_string();
        assert!(err.contains("vector 7") && err.contains("b_i"), "{err}");
        let mut bad = good;
        bad.expected.clear();
        assert!(h.check_vector(0, &bad).is_err());
    }
}
