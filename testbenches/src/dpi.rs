//! The DPI-C testbench: a SystemVerilog testbench that draws its vectors from a golden model
//! linked into the simulation as a C library, instead of reading vector files.
//!
//! The model is any C library exporting three functions under one prefix `<model>`:
//!
//! ```c
//! void *<model>_open(const char *plan);                 // NULL (and a message) on a bad plan
//! int <model>_round(void *model, int lanes, svBitVecVal *stimulus, svBitVecVal *expected);
//! void <model>_close(void *model);
//! ```
//!
//! `plan` is the path the simulation gets as `+golden_plan=FILE`; what it holds is the
//! model's business. Each `round` call writes the next `lanes` vectors side by side (vector `k`
//! at bit `k * IN_W` of `stimulus` and `k * OUT_W` of `expected`) and returns how many it wrote,
//! fewer than `lanes` (down to 0) only once the stream is exhausted: each vector's stimulus is
//! the concatenation of the harness's inputs (the first input in the most significant bits, as
//! in the file-based testbench), its expected value the outputs the model expects, concatenated
//! the same way. One call a round, not one a vector: a DPI-C call and the copies of its wide
//! arguments cost about as much as the model's drawing a vector.
//!
//! The testbench instantiates the DUT `lanes` times side by side: each round it draws one
//! vector per lane (in stream order: vector `i` of the model is lane `i % lanes` of round
//! `i / lanes`), applies them together, and checks every lane's outputs against its expected
//! value (all lanes at once with one wide comparison; lane by lane when that fails or the round
//! is not full), so vector numbers, verdicts and the first [`MAX_REPORTED_MISMATCHES`] `MISMATCH`
//! lines are those the file-based testbench prints for the same stream. It ends with the same
//! summary line and `$fatal` when a vector failed.
//!
//! The DUT's inputs are registered on a testbench strobe `tb_apply` (a round is applied by its
//! rising edge, after which Verilator 5.006 reliably evaluates the DUT; assigned directly from
//! the timed process, a DUT's logic was seen not to be re-evaluated). A combinational DUT is
//! checked 1 ns after that edge. A pipelined DUT gets a 10 ns
//! clock, two cycles of reset, one round per cycle applied after the falling edge, and each
//! round checked 1 ns after the rising edge `latency - 1` cycles later. Unlike the file-based
//! testbench it does not sample outputs between edges, so it does not separately catch outputs
//! that follow the inputs before the edge (they fail as wrong values instead). Clocked DUTs
//! (state updated by each vector) are not supported: their model would have to follow the
//! simulation's state.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::harness::{Harness, Timing};
use crate::testbench::MAX_REPORTED_MISMATCHES;
use hdl_util::CodeWriter;

/// The plusarg that names the model's plan file.
pub const PLAN_PLUSARG: &str = "golden_plan";

/// Lanes a DPI testbench checks per round unless told otherwise: enough that the simulator's
/// per-round cost (one timed wait, one evaluation) is shared by many vectors.
pub const DEFAULT_LANES: usize = 64;

/// The largest lane count (each lane is one DUT instance).
pub const MAX_LANES: usize = 1024;

/// What [`write_dpi_testbench`] produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DpiTestbench {
    /// The testbench's top module, `tb_<dut>_dpi`.
    pub top: String,
    /// The DUT's module name.
    pub dut: String,
    /// The testbench source file, `<dir>/tb_<dut>_dpi.sv`.
    pub source: PathBuf,
    /// The model's C function prefix.
    pub model: String,
}

/// The top module name of the DPI testbench of `dut`.
pub fn dpi_top(dut: &str) -> String {
    format!("tb_{dut}_dpi")
}

/// Writes the DPI testbench of `harness` calling `model` into `dir` (created if missing).
pub fn write_dpi_testbench(
    dir: &Path,
    harness: &Harness,
    model: &str,
    lanes: usize,
) -> Result<DpiTestbench, Error> {
    let source_text = dpi_testbench_source(harness, model, lanes)?;
    fs::create_dir_all(dir).map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    let dir = dir
        .canonicalize()
        .map_err(|e| Error::io(format!("resolving {}", dir.display()), e))?;
    let top = dpi_top(&harness.dut);
    let source = dir.join(format!("{top}.sv"));
    fs::write(&source, source_text)
        .map_err(|e| Error::io(format!("writing {}", source.display()), e))?;
    Ok(DpiTestbench {
        top,
        dut: harness.dut.clone(),
        source,
        model: model.to_owned(),
    })
}

/// The SystemVerilog text of the DPI testbench (see the module documentation). Fails on an
/// invalid harness, a clocked one, a model prefix that is not an identifier, or a lane count
/// outside `1..=MAX_LANES`.
pub fn dpi_testbench_source(harness: &Harness, model: &str, lanes: usize) -> Result<String, Error> {
    harness.validate()?;
    let bad = |m: String| Err(Error::InvalidHarness(m));
    let latency = match harness.timing {
        Timing::Combinational => 0,
        Timing::Pipelined { latency } => latency as usize,
        Timing::Clocked => {
            return bad(format!(
                "`{}` is clocked: the DPI testbench checks combinational and pipelined DUTs only",
                harness.dut
            ))
        }
    };
    if harness.has_dont_cares() {
        return bad(format!(
            "`{}` has outputs checked only in part: the DPI testbench checks every bit",
            harness.dut
        ));
    }
    if model.is_empty() || !model.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return bad(format!("model prefix `{model}` is not a C identifier"));
    }
    if !(1..=MAX_LANES).contains(&lanes) {
        return bad(format!("{lanes} lanes: allowed 1 to {MAX_LANES}"));
    }
    let dut = &harness.dut;
    let top = dpi_top(dut);
    let in_w = harness.input_width();
    let out_w = harness.output_width();
    let mut w = CodeWriter::new("  ");
    w.line(format!(
        "// Self-checking DPI-C testbench for module `{dut}`: vectors drawn from the golden model."
    ));
    w.line(format!(
        "// Generated by the testbenches crate {}; do not edit.",
        env!("CARGO_PKG_VERSION")
    ));
    w.line(format!(
        "// Model: the C functions {model}_open, {model}_next and {model}_close; plan file: +{PLAN_PLUSARG}=FILE."
    ));
    w.line(format!(
        "// Timing: {}.",
        if latency == 0 {
            "combinational, each round applied by a tb_apply edge and checked 1 ns later".to_owned()
        } else {
            format!("pipelined, latency {latency}, clk_i period 10 ns, active-low async rst_ni")
        }
    ));
    w.line(format!(
        "// {lanes} DUT instances side by side; vector i of the model is lane i % {lanes} of round i / {lanes}."
    ));
    w.line(format!(
        "// Prints at most {MAX_REPORTED_MISMATCHES} MISMATCH lines, then exactly one line `{dut}: P passed, F failed`."
    ));
    w.line("// Ends with $fatal (a non-zero exit status) if F > 0 or the model cannot be opened.");
    w.line("`timescale 1ns/1ps");
    w.blank();
    w.line(format!("module {top};"));
    {
        let mut m = w.indent();
        m.line(format!("localparam integer LANES = {lanes};"));
        m.line(format!("localparam integer IN_W = {in_w};"));
        m.line(format!("localparam integer OUT_W = {out_w};"));
        m.line(format!(
            "localparam integer MAX_REPORTS = {MAX_REPORTED_MISMATCHES};"
        ));
        m.line(format!(
            "localparam integer STAGES = {}; // rounds in flight: the latency, at least 1",
            latency.max(1)
        ));
        m.blank();
        m.line(format!(
            "import \"DPI-C\" function chandle {model}_open(input string plan);"
        ));
        m.line(format!(
            "import \"DPI-C\" function int {model}_round(input chandle model, input int lanes,"
        ));
        m.line("    output bit [LANES*IN_W-1:0] stimulus, output bit [LANES*OUT_W-1:0] expected);");
        m.line(format!(
            "import \"DPI-C\" function void {model}_close(input chandle model);"
        ));
        m.blank();
        m.line("reg [LANES*IN_W-1:0] tb_stim;");
        m.line("wire [LANES*OUT_W-1:0] tb_got;");
        let stages = latency.max(1);
        m.line(format!(
            "// The expected outputs and valid flags of the last {stages} round(s), newest first."
        ));
        m.line("reg [LANES*OUT_W-1:0] tb_expected [0:STAGES-1];");
        m.line("reg [LANES-1:0] tb_valid [0:STAGES-1];");
        m.line("reg [LANES*IN_W-1:0] tb_applied [0:STAGES-1];");
        m.line("longint tb_first [0:STAGES-1];");
        m.line("bit [LANES*OUT_W-1:0] tb_e;");
        m.line("integer tb_n;");
        m.line("chandle tb_model;");
        m.line("string tb_plan;");
        m.line("longint tb_drawn;");
        m.line("longint tb_passed;");
        m.line("longint tb_failed;");
        m.line("integer tb_reports;");
        m.line("integer tb_lane;");
        m.line("integer tb_k;");
        m.line("integer tb_drain;");
        m.line("bit tb_more;");
        if latency > 0 {
            m.line("reg tb_clk;");
            m.line("reg tb_rst_n;");
        }
        m.line("// The DUT's inputs are registered on tb_apply: each round is applied by an edge,");
        m.line("// which every simulator schedules the DUT's evaluation after.");
        m.line("reg tb_apply;");
        m.line("reg [LANES*IN_W-1:0] tb_stim_q;");
        m.line("always @(posedge tb_apply) tb_stim_q <= tb_stim;");
        m.blank();
        m.line("genvar tb_g;");
        m.block(
            "for (tb_g = 0; tb_g < LANES; tb_g = tb_g + 1) begin : g_lane",
            "end",
            |w| {
                let mut msb = in_w;
                for port in &harness.inputs {
                    let lsb = msb - port.width;
                    w.line(format!(
                        "wire [{}:0] {} = {}[tb_g*IN_W + {lsb} +: {}];",
                        port.width - 1,
                        port.name,
                        "tb_stim_q",
                        port.width
                    ));
                    msb = lsb;
                }
                for port in &harness.outputs {
                    w.line(format!("wire [{}:0] {};", port.width - 1, port.name));
                }
                let outputs: Vec<&str> = harness.outputs.iter().map(|p| p.name.as_str()).collect();
                w.line(format!(
                    "assign tb_got[tb_g*OUT_W +: OUT_W] = {{{}}};",
                    outputs.join(", ")
                ));
                let mut conns: Vec<String> = Vec::new();
                if latency > 0 {
                    conns.push(".clk_i(tb_clk)".into());
                    conns.push(".rst_ni(tb_rst_n)".into());
                }
                for port in harness.inputs.iter().chain(&harness.outputs) {
                    conns.push(format!(".{0}({0})", port.name));
                }
                w.block(format!("{dut} u_dut ("), ");", |w| {
                    w.line(conns.join(",\n"))
                });
            },
        );
        m.blank();
        m.block("initial begin", "end", |w| {
            body(w, model, &top, dut, latency, stages);
        });
    }
    w.line("endmodule");
    Ok(w.finish())
}

/// The testbench's initial block: open the model, run the rounds, report, close.
fn body(w: &mut CodeWriter, model: &str, top: &str, dut: &str, latency: usize, stages: usize) {
    w.block(
        format!("if (!$value$plusargs(\"{PLAN_PLUSARG}=%s\", tb_plan)) begin"),
        "end",
        |w| {
            w.line(format!(
                "$fatal(1, \"{top}: no +{PLAN_PLUSARG}=FILE given\");"
            ))
        },
    );
    w.line(format!("tb_model = {model}_open(tb_plan);"));
    w.block("if (tb_model == null) begin", "end", |w| {
        w.line(format!(
            "$fatal(1, \"{top}: the model could not open plan %s\", tb_plan);"
        ));
    });
    for line in [
        "tb_drawn = 0;",
        "tb_passed = 0;",
        "tb_failed = 0;",
        "tb_reports = 0;",
        "tb_more = 1'b1;",
    ] {
        w.line(line);
    }
    w.line("tb_drain = STAGES;");
    w.block(
        "for (tb_k = 0; tb_k < STAGES; tb_k = tb_k + 1) begin",
        "end",
        |w| {
            w.line("tb_valid[tb_k] = '0;");
            w.line("tb_first[tb_k] = 0;");
        },
    );
    w.line("tb_apply = 1'b0;");
    if latency > 0 {
        w.line("tb_clk = 1'b0;");
        w.line("tb_rst_n = 1'b0;");
        w.line("// Two clock cycles in reset, released at a falling edge.");
        w.block("repeat (2) begin", "end", |w| {
            w.line("#5 tb_clk = 1'b1;");
            w.line("#5 tb_clk = 1'b0;");
        });
        w.line("tb_rst_n = 1'b1;");
    }
    w.line(format!(
        "// One round per {}; once the model is exhausted, {stages} more round(s) drain what is in flight.",
        if latency > 0 { "clock cycle" } else { "2 ns" }
    ));
    w.block("while (tb_drain > 0) begin", "end", |w| {
        if stages > 1 {
            w.block(
                "for (tb_k = STAGES - 1; tb_k > 0; tb_k = tb_k - 1) begin",
                "end",
                |w| {
                    w.line("tb_expected[tb_k] = tb_expected[tb_k - 1];");
                    w.line("tb_applied[tb_k] = tb_applied[tb_k - 1];");
                    w.line("tb_valid[tb_k] = tb_valid[tb_k - 1];");
                    w.line("tb_first[tb_k] = tb_first[tb_k - 1];");
                },
            );
        }
        w.line(
            "// Draw one vector per lane, in stream order, in one call; fewer at the stream's end.",
        );
        w.line("tb_first[0] = tb_drawn;");
        w.block("if (tb_more) begin", "end else begin", |w| {
            w.line(format!(
                "tb_n = {model}_round(tb_model, LANES, tb_stim, tb_e);"
            ));
        });
        w.indent().line("tb_n = 0;");
        w.line("end");
        w.line("tb_expected[0] = tb_e;");
        w.line("tb_valid[0] = ~({LANES{1'b1}} << tb_n);");
        w.line("tb_drawn = tb_drawn + longint'(tb_n);");
        w.block("if (tb_n < LANES) begin", "end", |w| {
            w.line("tb_more = 1'b0;");
        });
        w.line("tb_applied[0] = tb_stim;");
        w.block("if (!tb_more) begin", "end", |w| {
            w.line("tb_drain = tb_drain - 1;");
        });
        w.line("#1 tb_apply = 1'b1;");
        w.line("#1 tb_apply = 1'b0;");
        if latency > 0 {
            w.line("#2 tb_clk = 1'b1;");
            w.line("#1;");
        }
        let last = stages - 1;
        w.block(
            format!("if (tb_valid[{last}] == '1 && tb_got === tb_expected[{last}]) begin"),
            "end else begin",
            |w| w.line("tb_passed = tb_passed + longint'(LANES);"),
        );
        lane_by_lane(&mut w.indent(), last);
        w.line("end");
        if latency > 0 {
            w.line("#5 tb_clk = 1'b0;");
        }
    });
    w.line(format!("{model}_close(tb_model);"));
    w.line(format!(
        "$display(\"{dut}: %0d passed, %0d failed\", tb_passed, tb_failed);"
    ));
    w.block("if (tb_failed != 0) begin", "end", |w| {
        w.line(format!(
            "$fatal(1, \"{dut}: %0d of %0d vectors failed\", tb_failed, tb_drawn);"
        ));
    });
    w.line("$finish;");
}

/// The check of round `last` lane by lane: a `MISMATCH` line for each of the first
/// `MAX_REPORTS` failing lanes, in lane order.
fn lane_by_lane(w: &mut CodeWriter, last: usize) {
    w.block(
        "for (tb_lane = 0; tb_lane < LANES; tb_lane = tb_lane + 1) begin",
        "end",
        |w| {
            w.block(format!("if (tb_valid[{last}][tb_lane]) begin"), "end", |w| {
                w.block(
                    format!(
                        "if (tb_got[tb_lane*OUT_W +: OUT_W] !== tb_expected[{last}][tb_lane*OUT_W +: OUT_W]) begin"
                    ),
                    "end else begin",
                    |w| {
                        w.line("tb_failed = tb_failed + 1;");
                        w.block("if (tb_reports < MAX_REPORTS) begin", "end", |w| {
                            w.line(
                                "$display(\"MISMATCH vector %0d in=%h expected=%h got=%h\",",
                            );
                            w.line(format!(
                                "         tb_first[{last}] + longint'(tb_lane), tb_applied[{last}][tb_lane*IN_W +: IN_W],"
                            ));
                            w.line(format!(
                                "         tb_expected[{last}][tb_lane*OUT_W +: OUT_W], tb_got[tb_lane*OUT_W +: OUT_W]);"
                            ));
                        });
                        w.line("tb_reports = tb_reports + 1;");
                    },
                );
                w.indent().line("tb_passed = tb_passed + 1;");
                w.line("end");
            });
        },
    );
}
