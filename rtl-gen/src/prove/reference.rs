//! The writer of reference netlists: a family's referee (`hash::reference`,
//! `rap::reference`, `d2ma::reference`) writes its reference with it, from the golden models and
//! the family's definition, never from the generator's RTL code.
//!
//! Each reference has the block's interface and carries its domain as `assume` statements
//! (field values in range, indices below `w`, loaded shifts below `w`): the proof covers every
//! input the assumptions allow.

use super::block::Port;
use std::fmt::Write;

/// The module name of every reference (unlikely to collide with a generated module).
pub const MODULE: &str = "rtl_gen_prove_reference";

/// A reference module and what proving the block equal to it establishes.
#[derive(Debug, Clone)]
pub struct Reference {
    /// Verilog-2005 with `assume` statements (read with `read_verilog -formal`).
    pub verilog: String,
    /// The ports, as the block must have them.
    pub ports: Vec<Port>,
    /// What equality with it means, in words.
    pub claim: String,
    /// Whether it holds state other than an output register (the loadable converter's tables).
    pub stateful: bool,
}

/// Bits to hold every value `0..=max` (at least 1).
pub fn bits_to_hold(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

/// One row of a GF(2) matrix times `signal`: the XOR of the bits of `signal` that `row`'s set
/// bits below `n` select (`addr_i[1] ^ addr_i[3]`), `1'b0` when none.
pub fn matrix_row(row: u64, n: u32, signal: &str) -> String {
    let terms: Vec<String> = (0..n)
        .filter(|b| row >> b & 1 == 1)
        .map(|b| format!("{signal}[{b}]"))
        .collect();
    if terms.is_empty() {
        "1'b0".to_string()
    } else {
        terms.join(" ^ ")
    }
}

/// An input port of a reference.
pub fn input(name: &str, width: u32) -> Port {
    Port {
        name: name.into(),
        input: true,
        width,
    }
}

/// An output port of a reference.
pub fn output(name: &str, width: u32) -> Port {
    Port {
        name: name.into(),
        input: false,
        width,
    }
}

/// The text of one module: ports, then body lines; the outputs are driven by `<name>_d` wires
/// the body assigns, directly or (latency 1) through a register reset to zero.
pub struct ModuleText {
    /// Every port, `clk_i` and `rst_ni` first when clocked.
    pub ports: Vec<Port>,
    body: String,
    assumptions: Vec<String>,
}

impl ModuleText {
    /// A module with `ports`, and `clk_i` and `rst_ni` before them when `clocked`.
    pub fn new(ports: Vec<Port>, clocked: bool) -> Self {
        let clock = [input("clk_i", 1), input("rst_ni", 1)];
        Self {
            ports: clock.into_iter().filter(|_| clocked).chain(ports).collect(),
            body: String::new(),
            assumptions: Vec::new(),
        }
    }

    /// Adds a body line.
    pub fn line(&mut self, text: impl AsRef<str>) {
        self.body.push_str("  ");
        self.body.push_str(text.as_ref());
        self.body.push('\n');
    }

    /// Adds an assumption: the domain the proof covers.
    pub fn assume(&mut self, condition: String) {
        self.assumptions.push(condition);
    }

    /// The module text; `registered` puts an output register (reset to 0) behind every output.
    pub fn finish(mut self, registered: bool) -> String {
        let decls: Vec<String> = self
            .ports
            .iter()
            .map(|p| {
                format!(
                    "  {} wire [{}:0] {}",
                    if p.input { "input " } else { "output" },
                    p.width - 1,
                    p.name
                )
            })
            .collect();
        let mut text = format!("module {MODULE} (\n{}\n);\n", decls.join(",\n"));
        text.push_str(&self.body);
        for p in self.ports.iter().filter(|p| !p.input) {
            let (name, msb) = (&p.name, p.width - 1);
            if !registered {
                let _ = writeln!(text, "  assign {name} = {name}_d;");
            } else {
                let _ = writeln!(
                    text,
                    "  reg [{msb}:0] {name}_q;\n  \
                     always @(posedge clk_i or negedge rst_ni)\n    \
                     if (!rst_ni) {name}_q <= {w}'d0;\n    else {name}_q <= {name}_d;\n  \
                     assign {name} = {name}_q;",
                    w = p.width
                );
            }
        }
        if !self.assumptions.is_empty() {
            text.push_str("  always @* begin\n");
            for a in self.assumptions.drain(..) {
                let _ = writeln!(text, "    assume ({a});");
            }
            text.push_str("  end\n");
        }
        text.push_str("endmodule\n");
        text
    }
}

/// `claim`, and with `latency` 1 what the output register adds to it.
pub fn with_latency(claim: String, outputs: &str, latency: u32) -> String {
    if latency == 0 {
        claim
    } else {
        format!(
            "{claim}; registered: {outputs} in cycle t+1 is that of cycle t's inputs, and 0 while \
             rst_ni is low (asynchronous), for every input sequence from any state, from the \
             second cycle on (1-induction)"
        )
    }
}
