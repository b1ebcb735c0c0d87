//! The self-checking testbench: its Verilog-2005 text ([`testbench_source`]) and the files a run
//! needs ([`write_testbench`]).
//!
//! The testbench reads its vectors with `$readmemh` instead of embedding them, so its text
//! depends only on the harness and the vector count: it can be snapshot-tested, and a Verilator
//! build is reused by ccache whenever only the vector values change.

use std::fs;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::harness::{Harness, PortSpec, Timing, Vector};
use hdl_util::Bits;
use hdl_util::CodeWriter;

/// The time unit and precision of every testbench and of every module rtl-gen writes beside it
/// (one time unit throughout a design, as simulators and linters expect).
pub const TIMESCALE: &str = "`timescale 1ns/1ps";

/// At most this many `MISMATCH` lines are printed by a testbench.
pub const MAX_REPORTED_MISMATCHES: usize = 10;

/// What [`write_testbench`] produced: the testbench file, its two vector files, its top module
/// and how many vectors it checks. Simulator drivers take this as their input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Testbench {
    /// The testbench's top module, `tb_<dut>`.
    pub top: String,
    /// The testbench source file, `<dir>/tb_<dut>.v`.
    pub source: PathBuf,
    /// The stimulus file, `<dir>/<dut>.stim.hex` (one line per vector).
    pub stimulus: PathBuf,
    /// The expected-output file, `<dir>/<dut>.expect.hex` (one line per vector).
    pub expected: PathBuf,
    /// The number of vectors the testbench checks.
    pub vectors: usize,
}

impl Testbench {
    /// The folder holding the testbench and its vector files: simulations run with it as their
    /// working directory, because the testbench opens its vector files by relative name.
    pub fn dir(&self) -> &Path {
        self.source.parent().unwrap_or(Path::new("."))
    }

    /// The DUT's module name (the top module without its `tb_` prefix).
    pub fn dut(&self) -> &str {
        self.top.strip_prefix("tb_").unwrap_or(&self.top)
    }
}

/// The file name of the stimulus file for `dut`.
pub fn stimulus_file_name(dut: &str) -> String {
    format!("{dut}.stim.hex")
}

/// The file name of the expected-output file for `dut`.
pub fn expected_file_name(dut: &str) -> String {
    format!("{dut}.expect.hex")
}

/// Write the testbench for `harness` and `vectors` into `dir` (created if missing):
/// `tb_<dut>.v`, `<dut>.stim.hex` and `<dut>.expect.hex`. The returned paths are absolute.
///
/// Fails if the harness is invalid, if there are no vectors, if a vector does not match the
/// harness's port widths, or on an I/O error.
pub fn write_testbench(
    dir: &Path,
    harness: &Harness,
    vectors: &[Vector],
) -> Result<Testbench, Error> {
    harness.validate()?;
    if vectors.is_empty() {
        return Err(Error::InvalidHarness(format!(
            "no vectors for `{}`: a testbench that checks nothing would pass vacuously",
            harness.dut
        )));
    }
    for (index, vector) in vectors.iter().enumerate() {
        harness.check_vector(index, vector)?;
    }
    fs::create_dir_all(dir).map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    let dir = dir
        .canonicalize()
        .map_err(|e| Error::io(format!("resolving {}", dir.display()), e))?;

    let top = harness.top();
    let source = dir.join(format!("{top}.v"));
    let stimulus = dir.join(stimulus_file_name(&harness.dut));
    let expected = dir.join(expected_file_name(&harness.dut));

    fs::write(&source, testbench_source(harness, vectors.len()))
        .map_err(|e| Error::io(format!("writing {}", source.display()), e))?;
    write_hex_lines(&stimulus, vectors.iter().map(|v| Bits::concat(&v.inputs)))?;
    write_hex_lines(&expected, vectors.iter().map(|v| Bits::concat(&v.expected)))?;

    Ok(Testbench {
        top,
        source,
        stimulus,
        expected,
        vectors: vectors.len(),
    })
}

/// Write one `$readmemh` line per value.
fn write_hex_lines(path: &Path, values: impl Iterator<Item = Bits>) -> Result<(), Error> {
    let err = |e| Error::io(format!("writing {}", path.display()), e);
    let file = fs::File::create(path).map_err(err)?;
    let mut out = BufWriter::new(file);
    for value in values {
        writeln!(out, "{}", value.to_hex()).map_err(err)?;
    }
    out.flush().map_err(err)
}

/// The Verilog-2005 text of the self-checking testbench `tb_<dut>` for `harness` and a run of
/// `vectors` vectors. A pure function, so callers can snapshot it; it assumes a harness that
/// passes [`Harness::validate`].
///
/// The testbench loads `<dut>.stim.hex` and `<dut>.expect.hex` from its working directory,
/// refuses to give a verdict if either does not hold `vectors` fully defined lines, drives each
/// stimulus, compares every output with `!==` (so X and Z fail), prints at most
/// [`MAX_REPORTED_MISMATCHES`] `MISMATCH vector <i> in=<hex> expected=<hex> got=<hex>` lines, and
/// prints exactly one `<dut>: <P> passed, <F> failed` line (P + F = `vectors`).
///
/// It fails like a test, so any runner that trusts the exit status (FuseSoC, make, a CI) sees a
/// broken design: when a vector fails, or when the vector files do not load, it ends with
/// `$fatal` (Icarus' `vvp` exits with status 1, a Verilator binary aborts with SIGABRT);
/// otherwise with `$finish` (status 0).
///
/// A clocked DUT with combinational outputs ([`Timing::Clocked`]) gets a 10 ns clock and one
/// vector per cycle, checked 1 ns after it is applied, before the rising edge. A pipelined DUT
/// gets one vector per cycle and `latency - 1` drain cycles; besides the latency check, each
/// vector fails if the outputs move between the moment its inputs are applied and the next
/// rising edge (outputs that are not registered), and its outputs must read zero in reset.
///
/// Both are reset three times, in the middle of operation too (see `push_clocked`): at power-on,
/// with the clock stopped (an asynchronous reset acts without an edge) and held over two edges;
/// the vectors run again from vector 0 after each reset, so the reset state is checked by the
/// golden model's own expected values.
///
/// # Panics
/// If `vectors` is 0 (a memory `[0:-1]` is not Verilog).
pub fn testbench_source(harness: &Harness, vectors: usize) -> String {
    assert!(
        vectors > 0,
        "testbench_source: a testbench needs at least one vector"
    );
    let dut = &harness.dut;
    let top = harness.top();
    let stim_file = stimulus_file_name(dut);
    let expect_file = expected_file_name(dut);
    let pipelined = match harness.timing {
        Timing::Combinational | Timing::Clocked => None,
        Timing::Pipelined { latency } => Some(latency),
    };
    let clocked = harness.timing != Timing::Combinational;
    let compare = Compare {
        care: harness.has_dont_cares(),
    };
    let names = |ports: &[PortSpec]| {
        ports
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Header: what this is, and the contract the drivers rely on; each line wraps at words
    // within the line width.
    let mut header = vec![
        format!("Self-checking testbench for module `{dut}`."),
        format!(
            "Generated by the testbenches crate {}; do not edit.",
            env!("CARGO_PKG_VERSION")
        ),
    ];
    header.push(format!(
        "Timing: {}.",
        match pipelined {
            None if clocked => "clocked, combinational outputs checked before each rising edge, clk_i period 10 ns, active-low async rst_ni".to_owned(),
            None => "combinational".to_owned(),
            Some(l) => format!("pipelined, latency {l}, clk_i period 10 ns, active-low async rst_ni"),
        }
    ));
    header.push(format!(
        "Stimulus: {stim_file}, one hex line per vector: {{{}}}.",
        names(&harness.inputs)
    ));
    header.push(format!(
        "Expected: {expect_file}, one hex line per vector: {{{}}}.",
        names(&harness.outputs)
    ));
    for port in &harness.outputs {
        if let Some(qualifier) = &port.checked_where {
            header.push(format!(
                "Don't-care: a lane of {} where its bit of {qualifier} is expected 0 (tb_care).",
                port.name
            ));
        }
    }
    header.push(format!(
        "Prints at most {MAX_REPORTED_MISMATCHES} MISMATCH lines, then exactly one line `{dut}: P passed, F failed`."
    ));
    if clocked {
        header.push(
            "Resets: at power-on, with the clock stopped, and over two edges; the vectors run \
             from vector 0 after each (phases 1, 2, 3 in MISMATCH lines)."
                .into(),
        );
    }
    header.push(
        "Ends with $fatal (a non-zero exit status) if F > 0 or the vector files do not load."
            .into(),
    );
    let mut w = CodeWriter::new("  ");
    for line in &header {
        w.comment("// ", line);
    }
    w.line(TIMESCALE);
    w.blank();
    w.line(format!("module {top};"));
    {
        let mut m = w.indent();
        declarations(&mut m, harness, vectors, pipelined, clocked);
        if compare.care {
            m.blank();
            care_function(&mut m, harness);
        }
        m.blank();
        m.block("initial begin", "end", |w| {
            w.line("tb_load_ok = 1'b1;");
            load(w, "stimulus_mem", "IN_W", &stim_file);
            load(w, "expected_mem", "OUT_W", &expect_file);
            w.block(
                "for (tb_i = 0; tb_i < N; tb_i = tb_i + 1) begin",
                "end",
                |w| {
                    w.line("if ((^stimulus_mem[tb_i] !== 1'b0 && ^stimulus_mem[tb_i] !== 1'b1) ||");
                    w.block(
                        "    (^expected_mem[tb_i] !== 1'b0 && ^expected_mem[tb_i] !== 1'b1)) begin",
                        "end",
                        |w| w.line("tb_load_ok = 1'b0;"),
                    );
                },
            );
            w.line("tb_passed = 0;");
            w.line("tb_failed = 0;");
            w.line("tb_reports = 0;");
            w.block("if (!tb_load_ok) begin", "end else begin", |w| {
                w.line(format!(
                    "$fatal(1, \"{top}: %s / %s do not hold %0d defined vectors\","
                ));
                let (stim, expect) = (format!("\"{stim_file}\""), format!("\"{expect_file}\""));
                w.fill("       ", &[&stim, &expect, "N"], ",", ");");
            });
            {
                let mut w = w.indent();
                if clocked {
                    push_clocked(&mut w, pipelined, compare);
                } else {
                    push_combinational(&mut w, compare);
                }
                w.line(format!(
                    "$display(\"{dut}: %0d passed, %0d failed\", tb_passed, tb_failed);"
                ));
                w.block("if (tb_failed != 0) begin", "end", |w| {
                    w.line(format!(
                        "$fatal(1, \"{dut}: %0d of %0d vectors failed\", tb_failed, N);"
                    ));
                });
            }
            w.line("end");
            w.line("$finish;");
        });
    }
    w.line("endmodule");
    w.finish()
}

/// The testbench's parameters, vector memories, its nets around the DUT and the DUT itself,
/// connected by name.
fn declarations(
    w: &mut CodeWriter,
    harness: &Harness,
    vectors: usize,
    pipelined: Option<u32>,
    clocked: bool,
) {
    let in_w = harness.input_width();
    w.line(format!("localparam integer N = {vectors};"));
    w.line(format!("localparam integer IN_W = {in_w};"));
    w.line(format!(
        "localparam integer OUT_W = {};",
        harness.output_width()
    ));
    w.line(format!(
        "localparam integer MAX_REPORTS = {MAX_REPORTED_MISMATCHES};"
    ));
    if let Some(latency) = pipelined {
        w.line(format!("localparam integer LATENCY = {latency};"));
    }
    w.blank();
    w.line("reg [IN_W-1:0] stimulus_mem [0:N-1];");
    w.line("reg [OUT_W-1:0] expected_mem [0:N-1];");
    w.blank();
    w.line("reg [IN_W-1:0] tb_stim;");
    w.line("wire [OUT_W-1:0] tb_got;");
    if pipelined.is_some() {
        w.line("reg [OUT_W-1:0] tb_last;");
    }
    if clocked {
        w.line("reg tb_fail [0:N-1];");
        w.line("reg tb_clk;");
        w.line("reg tb_rst_n;");
    }
    for name in ["tb_i", "tb_passed", "tb_failed", "tb_reports"] {
        w.line(format!("integer {name};"));
    }
    w.line("reg tb_load_ok;");
    if clocked {
        for name in ["tb_k", "tb_end", "tb_phase"] {
            w.line(format!("integer {name};"));
        }
    }
    if pipelined.is_some() {
        w.line("integer tb_c;");
    }
    w.blank();
    for port in harness.inputs.iter().chain(&harness.outputs) {
        w.line(format!("wire [{}:0] {};", port.width - 1, port.name));
    }
    w.blank();
    let mut msb = in_w;
    for port in &harness.inputs {
        let lsb = msb - port.width;
        w.line(format!(
            "assign {} = tb_stim[{}:{}];",
            port.name,
            msb - 1,
            lsb
        ));
        msb = lsb;
    }
    let outputs: Vec<&str> = harness.outputs.iter().map(|p| p.name.as_str()).collect();
    w.fill("assign tb_got = {", &outputs, ",", "};");
    w.blank();
    let mut conns: Vec<String> = Vec::new();
    if clocked {
        conns.push(".clk_i(tb_clk)".into());
        conns.push(".rst_ni(tb_rst_n)".into());
    }
    for port in harness.inputs.iter().chain(&harness.outputs) {
        conns.push(format!(".{0}({0})", port.name));
    }
    w.block(format!("{} u_dut (", harness.dut), ");", |w| {
        w.line(conns.join(",\n"));
    });
}

/// Loads `file` into `mem` (words `width` bits wide) and clears `tb_load_ok` if the file does
/// not reach the last word. A file with fewer lines than N (or none) leaves the last word
/// unwritten, which a 2-state simulator cannot show as X: so that word is preset to zeros and,
/// if it still reads zero, preset to ones and loaded again. A 4-state simulator leaves
/// unreadable words X, which the parity test after the loads catches (written without an `x`
/// literal, so a 2-state simulator sees no false alarm).
fn load(w: &mut CodeWriter, mem: &str, width: &str, file: &str) {
    let readmem = format!("$readmemh(\"{file}\", {mem}, 0, N-1);");
    w.line(format!("{mem}[N-1] = {{{width}{{1'b0}}}};"));
    w.line(&readmem);
    w.block(
        format!("if ({mem}[N-1] == {{{width}{{1'b0}}}}) begin"),
        "end",
        |w| {
            w.line(format!("{mem}[N-1] = {{{width}{{1'b1}}}};"));
            w.line(&readmem);
            w.block(
                format!("if ({mem}[N-1] != {{{width}{{1'b0}}}}) begin"),
                "end",
                |w| w.line("tb_load_ok = 1'b0;"),
            );
        },
    );
}

/// Reports one mismatch (bounded by `MAX_REPORTS`); `note` is appended to the line, with the
/// value of `tb_phase` when `phase` is set.
fn report(
    w: &mut CodeWriter,
    (index, input, expected): (&str, &str, &str),
    note: &str,
    phase: bool,
) {
    let (phase_format, phase_arg) = if phase {
        (" phase %0d", ", tb_phase")
    } else {
        ("", "")
    };
    // A note goes on the same output line through a `$write` then a `$display`, so that no
    // source line passes the width.
    let (task, pad) = if note.is_empty() {
        ("$display", "        ")
    } else {
        ("$write", "      ")
    };
    w.block("if (tb_reports < MAX_REPORTS) begin", "end", |w| {
        w.line(format!(
            "{task}(\"MISMATCH vector %0d in=%h expected=%h got=%h{phase_format}\","
        ));
        w.line(format!(
            "{pad} {index}, {input}, {expected}, tb_got{phase_arg});"
        ));
        if !note.is_empty() {
            w.line(format!("$display(\"{note}\");"));
        }
    });
    w.line("tb_reports = tb_reports + 1;");
}

/// How the testbench compares the outputs with an expected value: every bit, or, when the
/// harness has don't-cares ([`PortSpec::checked_where`]), the bits `tb_care` keeps.
#[derive(Clone, Copy)]
struct Compare {
    /// Whether the harness has don't-cares (the testbench then has a `tb_care` function).
    care: bool,
}

impl Compare {
    /// The Verilog condition that `got` differs from `expected` in a checked bit (an `x` or
    /// `z` in a checked bit of `got` differs too).
    fn differs(self, got: &str, expected: &str) -> String {
        if self.care {
            format!("(({got} ^ {expected}) & tb_care({expected})) !== {{OUT_W{{1'b0}}}}")
        } else {
            format!("{got} !== {expected}")
        }
    }
}

/// The function `tb_care(expected)`: the output bits checked against `expected`, ones but in
/// each lane of a partly checked output whose qualifier bit `expected` holds 0.
fn care_function(w: &mut CodeWriter, harness: &Harness) {
    let lsb = |name: &str| {
        let at = harness
            .outputs
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| unreachable!("a validated harness names its own outputs"));
        harness.outputs[at + 1..]
            .iter()
            .map(|p| p.width)
            .sum::<usize>()
    };
    w.line("// The output bits checked against an expected value: each lane of a partly checked");
    w.line("// output only where its qualifier bit is expected 1.");
    w.line("function [OUT_W-1:0] tb_care;");
    {
        let mut f = w.indent();
        f.line("input [OUT_W-1:0] expected;");
        f.line("integer lane;");
        f.block("begin", "end", |w| {
        w.line("tb_care = {OUT_W{1'b1}};");
        for port in &harness.outputs {
            let Some(qualifier) = &port.checked_where else {
                continue;
            };
            let lanes = harness
                .outputs
                .iter()
                .find(|p| &p.name == qualifier)
                .map_or(1, |p| p.width);
            let lane_w = port.width / lanes;
            w.line(format!("// {}: lane k where {qualifier}[k] is expected 1.", port.name));
            w.block(
                format!("for (lane = 0; lane < {lanes}; lane = lane + 1) begin"),
                "end",
                |w| {
                    w.line(format!(
                        "tb_care[{} + lane * {lane_w} +: {lane_w}] = {{{lane_w}{{expected[{} + lane]}}}};",
                        lsb(&port.name),
                        lsb(qualifier)
                    ));
                },
            );
        }
    });
    }
    w.line("endfunction");
}

/// Applies vector `tb_i`, lets the outputs settle 1 ns, compares `tb_got` with its expected
/// value and counts the verdict.
fn apply_and_check(w: &mut CodeWriter, compare: Compare) {
    w.line("tb_stim = stimulus_mem[tb_i];");
    w.line("#1;");
    w.block(
        format!(
            "if ({}) begin",
            compare.differs("tb_got", "expected_mem[tb_i]")
        ),
        "end else begin",
        |w| {
            w.line("tb_failed = tb_failed + 1;");
            report(w, ("tb_i", "tb_stim", "expected_mem[tb_i]"), "", false);
        },
    );
    w.indent().line("tb_passed = tb_passed + 1;");
    w.line("end");
}

/// The check loop of a combinational DUT: apply, settle 1 ns, compare.
fn push_combinational(w: &mut CodeWriter, compare: Compare) {
    w.block(
        "for (tb_i = 0; tb_i < N; tb_i = tb_i + 1) begin",
        "end",
        |w| apply_and_check(w, compare),
    );
}

/// Reports one mismatch of a clocked DUT, with the phase it was seen in, and marks vector
/// `index` failed.
fn report_clocked(w: &mut CodeWriter, index: &str, input: &str, expected: &str, note: &str) {
    w.line(format!("tb_fail[{index}] = 1'b1;"));
    report(w, (index, input, expected), note, true);
}

/// Checks that a pipelined DUT's registered outputs read zero, their reset value, while
/// `rst_ni` is low; a failure counts against vector 0, the first checked after the reset.
fn check_reset_outputs(w: &mut CodeWriter, pipelined: Option<u32>, compare: Compare) {
    if pipelined.is_some() {
        w.line("#1;");
        let differs = compare.differs("tb_got", "{OUT_W{1'b0}}");
        w.block(format!("if ({differs}) begin"), "end", |w| {
            report_clocked(
                w,
                "0",
                "tb_stim",
                "{OUT_W{1'b0}}",
                " (not at reset value in reset)",
            );
        });
    }
}

/// The check loop of a clocked DUT. Every run starts from a reset and covers the vectors from
/// 0, so the golden model's expected values (computed from reset) hold after each reset:
///
/// 1. power-on reset (two clock cycles), then vectors 0 .. K-1, K about N/2 (moved on past
///    vectors whose expected outputs are all zero, so that a reset shows);
/// 2. `rst_ni` asserted with the clock stopped and released before any edge (an asynchronous
///    reset must act without one), then every vector;
/// 3. `rst_ni` asserted in the low phase and held over two rising edges (the reset wins over
///    whatever the inputs write), then vectors 0 .. min(N, 4096)-1.
///
/// A pipelined DUT's outputs are checked to be zero during each reset; a clocked DUT's reset
/// state is read by the vectors right after it.
fn push_clocked(w: &mut CodeWriter, pipelined: Option<u32>, compare: Compare) {
    w.block(
        "for (tb_i = 0; tb_i < N; tb_i = tb_i + 1) begin",
        "end",
        |w| w.line("tb_fail[tb_i] = 1'b0;"),
    );
    w.line("tb_phase = 1;");
    w.line("tb_clk = 1'b0;");
    w.line("tb_rst_n = 1'b0;");
    w.line("tb_stim = {IN_W{1'b0}};");
    w.line("// Phase 1: two clock cycles in reset, released at a falling edge; vectors 0 .. K-1.");
    w.block("repeat (2) begin", "end", |w| {
        w.line("#5 tb_clk = 1'b1;");
        w.line("#5 tb_clk = 1'b0;");
    });
    check_reset_outputs(w, pipelined, compare);
    w.line("tb_rst_n = 1'b1;");
    w.line("tb_k = (N + 1) / 2;");
    w.block(
        "while (tb_k < N && expected_mem[tb_k - 1] == {OUT_W{1'b0}}) begin",
        "end",
        |w| w.line("tb_k = tb_k + 1;"),
    );
    w.line("tb_end = tb_k;");
    run_vectors(w, pipelined, compare);
    w.line("// Phase 2: reset with the clock stopped (no edge while rst_ni is low); all vectors.");
    w.line("tb_phase = 2;");
    w.line("#2 tb_rst_n = 1'b0;");
    check_reset_outputs(w, pipelined, compare);
    w.line("#1 tb_rst_n = 1'b1;");
    w.line("tb_end = N;");
    run_vectors(w, pipelined, compare);
    w.line("// Phase 3: reset asserted in the low phase and held over two rising edges.");
    w.line("tb_phase = 3;");
    w.line("#2 tb_rst_n = 1'b0;");
    w.line("#3 tb_clk = 1'b1;");
    w.line("#5 tb_clk = 1'b0;");
    w.line("#5 tb_clk = 1'b1;");
    w.line("#5 tb_clk = 1'b0;");
    check_reset_outputs(w, pipelined, compare);
    w.line("tb_rst_n = 1'b1;");
    w.line("tb_end = (N < 4096) ? N : 4096;");
    run_vectors(w, pipelined, compare);
    w.block(
        "for (tb_i = 0; tb_i < N; tb_i = tb_i + 1) begin",
        "end",
        |w| {
            w.block("if (tb_fail[tb_i]) begin", "end else begin", |w| {
                w.line("tb_failed = tb_failed + 1;");
            });
            w.indent().line("tb_passed = tb_passed + 1;");
            w.line("end");
        },
    );
}

/// Vectors 0 .. `tb_end`-1 from the reset just released, one per cycle, for a clocked or a
/// pipelined DUT; starts and ends with the clock low.
fn run_vectors(w: &mut CodeWriter, pipelined: Option<u32>, compare: Compare) {
    match pipelined {
        None => run_clocked(w, compare),
        Some(latency) => run_pipelined(w, latency, compare),
    }
}

/// One vector per cycle of a clocked DUT with combinational outputs: applied after the falling
/// edge, checked 1 ns later, before the rising edge that commits it.
fn run_clocked(w: &mut CodeWriter, compare: Compare) {
    w.block(
        "for (tb_i = 0; tb_i < tb_end; tb_i = tb_i + 1) begin",
        "end",
        |w| {
            w.line("tb_stim = stimulus_mem[tb_i];");
            w.line("#1;");
            let differs = compare.differs("tb_got", "expected_mem[tb_i]");
            w.block(format!("if ({differs}) begin"), "end", |w| {
                report_clocked(w, "tb_i", "tb_stim", "expected_mem[tb_i]", "");
            });
            w.line("#4 tb_clk = 1'b1;");
            w.line("#5 tb_clk = 1'b0;");
        },
    );
}

/// One vector per cycle of a pipelined DUT, then `LATENCY - 1` cycles to drain (the last
/// stimulus held). Besides the latency check, a vector fails if the outputs move between the
/// moment its inputs are applied and the next rising edge (outputs that are not registered).
fn run_pipelined(w: &mut CodeWriter, latency: u32, compare: Compare) {
    w.line("tb_last = tb_got;");
    w.block(
        "for (tb_c = 0; tb_c < tb_end + LATENCY - 1; tb_c = tb_c + 1) begin",
        "end",
        |w| {
            w.block("if (tb_c < tb_end) begin", "end", |w| {
                w.line("tb_stim = stimulus_mem[tb_c];");
            });
            w.line("#1;");
            w.line("// Registered outputs must not follow the inputs before the rising edge.");
            w.block(
                format!(
                    "if (tb_c < tb_end && {}) begin",
                    compare.differs("tb_got", "tb_last")
                ),
                "end",
                |w| {
                    report_clocked(
                        w,
                        "tb_c",
                        "tb_stim",
                        "tb_last",
                        " (moved before the edge: not registered)",
                    );
                },
            );
            w.line("#4 tb_clk = 1'b1;");
            w.line("#1;");
            // With LATENCY == 1 every cycle has an output to check and the index is the cycle
            // itself; emitting the general form would give Verilator a constant comparison to
            // warn about.
            let check = |w: &mut CodeWriter, index: &str| {
                w.block(
                    format!(
                        "if ({}) begin",
                        compare.differs("tb_got", &format!("expected_mem[{index}]"))
                    ),
                    "end",
                    |w| {
                        report_clocked(
                            w,
                            index,
                            &format!("stimulus_mem[{index}]"),
                            &format!("expected_mem[{index}]"),
                            "",
                        );
                    },
                );
            };
            if latency == 1 {
                check(w, "tb_c");
            } else {
                w.block("if (tb_c >= LATENCY - 1) begin", "end", |w| {
                    check(w, "tb_c - LATENCY + 1");
                });
            }
            w.line("tb_last = tb_got;");
            w.line("#4 tb_clk = 1'b0;");
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn harness(timing: Timing) -> Harness {
        Harness {
            dut: "mix".into(),
            inputs: vec![PortSpec::new("a_i", 8), PortSpec::new("b_i", 3)],
            outputs: vec![PortSpec::new("y_o", 8), PortSpec::new("v_o", 1)],
            timing,
        }
    }

    fn vector(a: u64, b: u64) -> Vector {
        Vector {
            inputs: vec![Bits::from_u64(a, 8), Bits::from_u64(b, 3)],
            expected: vec![Bits::from_u64(a ^ b, 8), Bits::from_u64(a & 1, 1)],
        }
    }

    #[test]
    fn combinational_source_wires_ports_in_order() {
        let text = testbench_source(&harness(Timing::Combinational), 5);
        assert_eq!(text, testbench_source(&harness(Timing::Combinational), 5));
        for needle in [
            "`timescale 1ns/1ps",
            "module tb_mix;",
            "localparam integer N = 5;",
            "localparam integer IN_W = 11;",
            "localparam integer OUT_W = 9;",
            "reg [IN_W-1:0] stimulus_mem [0:N-1];",
            "reg [OUT_W-1:0] expected_mem [0:N-1];",
            "$readmemh(\"mix.stim.hex\", stimulus_mem, 0, N-1);",
            "$readmemh(\"mix.expect.hex\", expected_mem, 0, N-1);",
            "assign a_i = tb_stim[10:3];",
            "assign b_i = tb_stim[2:0];",
            "assign tb_got = {y_o, v_o};",
            "wire [0:0] v_o;",
            "mix u_dut (\n    .a_i(a_i),\n    .b_i(b_i),\n    .y_o(y_o),\n    .v_o(v_o)\n  );",
            "if (tb_got !== expected_mem[tb_i]) begin",
            "$display(\"mix: %0d passed, %0d failed\", tb_passed, tb_failed);",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
        assert!(
            !text.contains("clk"),
            "a combinational testbench has no clock"
        );
        assert!(!text.contains("lint_off"));
        assert_eq!(text.matches("%0d passed, %0d failed").count(), 1);
    }

    #[test]
    fn pipelined_source_has_clock_reset_and_latency() {
        let text = testbench_source(&harness(Timing::Pipelined { latency: 3 }), 5);
        for needle in [
            "localparam integer LATENCY = 3;",
            ".clk_i(tb_clk),\n    .rst_ni(tb_rst_n),",
            "for (tb_c = 0; tb_c < tb_end + LATENCY - 1; tb_c = tb_c + 1) begin",
            "#2 tb_rst_n = 1'b0;\n      #1;\n      if (tb_got !== {OUT_W{1'b0}}) begin",
            "tb_end = (N < 4096) ? N : 4096;",
            "if (tb_c >= LATENCY - 1) begin",
            "expected_mem[tb_c - LATENCY + 1]",
            "not registered",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
        let one = testbench_source(&harness(Timing::Pipelined { latency: 1 }), 5);
        assert!(one.contains("expected_mem[tb_c]") && !one.contains("LATENCY - 1) begin"));
    }

    #[test]
    fn clocked_source_checks_before_the_edge() {
        let text = testbench_source(&harness(Timing::Clocked), 5);
        for needle in [
            ".clk_i(tb_clk),\n    .rst_ni(tb_rst_n),",
            "reg tb_clk;",
            "tb_stim = stimulus_mem[tb_i];\n        #1;\n        if (tb_got !== expected_mem[tb_i]) begin",
            "#4 tb_clk = 1'b1;",
            "// Timing: clocked, combinational outputs",
            // The asynchronous reset with the clock stopped: no edge between assert and release.
            "tb_phase = 2;\n      #2 tb_rst_n = 1'b0;\n      #1 tb_rst_n = 1'b1;\n      tb_end = N;",
            "tb_phase = 3;",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
        // Three runs of vectors, each from a reset.
        assert_eq!(
            text.matches("for (tb_i = 0; tb_i < tb_end; tb_i = tb_i + 1)")
                .count(),
            3
        );
        assert!(!text.contains("LATENCY") && !text.contains("tb_c "));
    }

    #[test]
    fn write_testbench_writes_three_files() {
        let dir = tempfile::tempdir().unwrap();
        let h = harness(Timing::Combinational);
        let tb = write_testbench(dir.path(), &h, &[vector(0xab, 5), vector(1, 0)]).unwrap();
        assert_eq!(tb.top, "tb_mix");
        assert_eq!(tb.dut(), "mix");
        assert_eq!(tb.vectors, 2);
        assert!(tb.source.is_absolute() && tb.source.ends_with("tb_mix.v"));
        assert_eq!(tb.dir(), dir.path().canonicalize().unwrap());
        assert_eq!(
            std::fs::read_to_string(&tb.source).unwrap(),
            testbench_source(&h, 2)
        );
        // {8'hab, 3'd5} = 11'h55d; {8'hae, 1'b1} = 9'h15d.
        assert_eq!(std::fs::read_to_string(&tb.stimulus).unwrap(), "55d\n008\n");
        assert_eq!(std::fs::read_to_string(&tb.expected).unwrap(), "15d\n003\n");
    }

    #[test]
    fn write_testbench_rejects_bad_input() {
        let dir = tempfile::tempdir().unwrap();
        let h = harness(Timing::Combinational);
        assert!(matches!(
            write_testbench(dir.path(), &h, &[]),
            Err(Error::InvalidHarness(_))
        ));
        let mut bad = vector(1, 1);
        bad.expected[1] = Bits::zero(2);
        let err = write_testbench(dir.path(), &h, &[vector(0, 0), bad]).unwrap_err();
        assert!(
            matches!(err, Error::InvalidVector { index: 1, .. }),
            "{err}"
        );
    }
}
