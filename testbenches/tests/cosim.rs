//! End-to-end checks: hand-written DUTs, expected values from hand-written Rust, generated
//! testbenches run under Icarus Verilog and Verilator.
//!
//! Verilator builds cost seconds on a 2-core machine, so its runs are few; Icarus covers the
//! rest of the behaviour.

use std::path::{Path, PathBuf};

use testbenches::lint::{iverilog_compile, verilator_lint};
use testbenches::{
    write_testbench, Bits, Error, Harness, Icarus, PortSpec, Simulator, Testbench, Timing, Vector,
    Verilator,
};

/// `y_o = a_i ^ {b_i[3:0], b_i[7:4]}`, combinational.
const MIX: &str = "\
module mix (
  input  wire [7:0] a_i,
  input  wire [7:0] b_i,
  output wire [7:0] y_o
);
  assign y_o = a_i ^ {b_i[3:0], b_i[7:4]};
endmodule
";

/// The same function behind one register, with `clk_i` and active-low async `rst_ni`.
const MIX_REG: &str = "\
module mix_reg (
  input  wire       clk_i,
  input  wire       rst_ni,
  input  wire [7:0] a_i,
  input  wire [7:0] b_i,
  output reg  [7:0] y_o
);
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      y_o <= 8'h00;
    end else begin
      y_o <= a_i ^ {b_i[3:0], b_i[7:4]};
    end
  end
endmodule
";

/// The same function behind two registers.
const MIX_REG2: &str = "\
module mix_reg2 (
  input  wire       clk_i,
  input  wire       rst_ni,
  input  wire [7:0] a_i,
  input  wire [7:0] b_i,
  output reg  [7:0] y_o
);
  reg [7:0] y_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      y_q <= 8'h00;
      y_o <= 8'h00;
    end else begin
      y_q <= a_i ^ {b_i[3:0], b_i[7:4]};
      y_o <= y_q;
    end
  end
endmodule
";

/// Has a clock and reset but computes its output combinationally: a pipelined harness must
/// reject it.
const MIX_COMB_CLK: &str = "\
module mix_comb_clk (
  input  wire       clk_i,
  input  wire       rst_ni,
  input  wire [7:0] a_i,
  input  wire [7:0] b_i,
  output wire [7:0] y_o
);
  wire unused_clk_rst;
  assign unused_clk_rst = clk_i ^ rst_ni;
  assign y_o = a_i ^ {b_i[3:0], b_i[7:4]};
endmodule
";

/// A 200-bit input rotated right by one, and a 5-bit fold of its two ends.
const WIDE: &str = "\
module wide (
  input  wire [199:0] a_i,
  input  wire [2:0]   s_i,
  output wire [199:0] y_o,
  output wire [4:0]   f_o
);
  assign y_o = {a_i[0], a_i[199:1]};
  assign f_o = a_i[4:0] ^ a_i[199:195] ^ {2'b00, s_i};
endmodule
";

/// The golden model of `mix`, written independently of the Verilog.
fn mix_model(a: u64, b: u64) -> u64 {
    a ^ (((b & 0xf) << 4) | (b >> 4))
}

/// A small deterministic generator, so the tests need no RNG crate.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn mix_harness(dut: &str, timing: Timing) -> Harness {
    Harness {
        dut: dut.into(),
        inputs: vec![PortSpec::new("a_i", 8), PortSpec::new("b_i", 8)],
        outputs: vec![PortSpec::new("y_o", 8)],
        timing,
    }
}

/// `n` vectors for `mix`: the first 256 sweep `a_i` with `b_i = 0x5a`, the rest are random.
fn mix_vectors(n: usize) -> Vec<Vector> {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|i| {
            let (a, b) = if i < 256 {
                (i as u64, 0x5a)
            } else {
                (rng.next() & 0xff, rng.next() & 0xff)
            };
            Vector {
                inputs: vec![Bits::from_u64(a, 8), Bits::from_u64(b, 8)],
                expected: vec![Bits::from_u64(mix_model(a, b), 8)],
            }
        })
        .collect()
}

/// Write `source` as `<dir>/<module>.v` and return the design's file list (that one file).
fn write_rtl(dir: &Path, module: &str, source: &str) -> Vec<PathBuf> {
    let path = dir.join(format!("{module}.v"));
    std::fs::write(&path, source).unwrap();
    vec![path]
}

/// Lint the testbench together with its DUT under both tools, as the project requires.
fn lint_both(rtl: &[PathBuf], tb: &Testbench) {
    let files = [rtl, std::slice::from_ref(&tb.source)].concat();
    verilator_lint(&files, &tb.top).unwrap();
    iverilog_compile(&files, &tb.top).unwrap();
}

fn simulators() -> [Box<dyn Simulator>; 2] {
    [Box::new(Icarus), Box::new(Verilator)]
}

#[test]
fn combinational_dut_passes_and_one_wrong_vector_fails_once() {
    let tmp = tempfile::tempdir().unwrap();
    let rtl = write_rtl(tmp.path(), "mix", MIX);
    let harness = mix_harness("mix", Timing::Combinational);
    let mut vectors = mix_vectors(300);
    let tb = write_testbench(&tmp.path().join("tb"), &harness, &vectors).unwrap();
    lint_both(&rtl, &tb);

    // The vector files hold one line per vector, inputs concatenated with a_i on top.
    let stim = std::fs::read_to_string(&tb.stimulus).unwrap();
    assert_eq!(stim.lines().count(), 300);
    assert_eq!(stim.lines().nth(3), Some("035a"));

    for sim in simulators() {
        let work = tmp.path().join("work");
        let report = sim.run(&rtl, &tb, &work).unwrap();
        assert_eq!(report.simulator, sim.name());
        assert_eq!(
            (report.vectors, report.passed, report.failed),
            (300, 300, 0),
            "{report:?}"
        );
        assert!(report.mismatches.is_empty());
        assert!(report.simulator_version.chars().any(|c| c.is_ascii_digit()));
    }

    // One wrong golden value: exactly that vector fails, and the testbench says which and how.
    let wrong = vectors[37].expected[0].field(0, 8) ^ 0x10;
    vectors[37].expected[0] = Bits::from_u64(wrong, 8);
    let tb = write_testbench(&tmp.path().join("tb"), &harness, &vectors).unwrap();
    for sim in simulators() {
        let report = sim.run(&rtl, &tb, &tmp.path().join("work")).unwrap();
        assert_eq!(
            (report.passed, report.failed),
            (299, 1),
            "{}: {report:?}",
            sim.name()
        );
        assert_eq!(
            report.mismatches,
            vec![format!(
                "MISMATCH vector 37 in=255a expected={wrong:02x} got={:02x}",
                mix_model(37, 0x5a)
            )]
        );
    }
}

#[test]
fn pipelined_duts_pass_at_their_latency_and_fail_at_another() {
    let tmp = tempfile::tempdir().unwrap();
    let vectors = mix_vectors(200);
    for (dut, source, latency) in [("mix_reg", MIX_REG, 1), ("mix_reg2", MIX_REG2, 2)] {
        let rtl = write_rtl(tmp.path(), dut, source);
        let harness = mix_harness(dut, Timing::Pipelined { latency });
        let tb = write_testbench(&tmp.path().join(dut), &harness, &vectors).unwrap();
        lint_both(&rtl, &tb);
        let report = Icarus.run(&rtl, &tb, &tmp.path().join("work")).unwrap();
        assert_eq!(
            (report.passed, report.failed),
            (200, 0),
            "{dut}: {report:?}"
        );
        if latency == 1 {
            let report = Verilator.run(&rtl, &tb, &tmp.path().join("work")).unwrap();
            assert_eq!(
                (report.passed, report.failed),
                (200, 0),
                "{dut}: {report:?}"
            );
        }

        // Claiming the wrong latency makes (nearly) every vector fail.
        let harness = mix_harness(
            dut,
            Timing::Pipelined {
                latency: latency + 1,
            },
        );
        let tb = write_testbench(&tmp.path().join(dut), &harness, &vectors).unwrap();
        let report = Icarus.run(&rtl, &tb, &tmp.path().join("work")).unwrap();
        assert!(
            report.failed > 150,
            "{dut} at latency {}: {report:?}",
            latency + 1
        );
        assert_eq!(report.mismatches.len(), 10);
    }
}

#[test]
fn combinational_dut_run_as_pipelined_fails_the_registered_outputs_check() {
    let tmp = tempfile::tempdir().unwrap();
    let rtl = write_rtl(tmp.path(), "mix_comb_clk", MIX_COMB_CLK);
    let harness = mix_harness("mix_comb_clk", Timing::Pipelined { latency: 1 });
    let vectors = mix_vectors(100);
    let tb = write_testbench(&tmp.path().join("tb"), &harness, &vectors).unwrap();
    lint_both(&rtl, &tb);

    // After each rising edge the outputs do match (the inputs are held), so only the
    // registered-outputs check can catch it: it fails every vector whose output differs from the
    // one before (the first is compared with the reset-time output, f(0, 0) = 0).
    let mut previous = 0;
    let mut changes = 0;
    for v in &vectors {
        let y = v.expected[0].field(0, 8);
        changes += usize::from(y != previous);
        previous = y;
    }
    assert!(changes > 90);
    for sim in simulators() {
        let report = sim.run(&rtl, &tb, &tmp.path().join("work")).unwrap();
        assert_eq!(report.failed, changes, "{}: {report:?}", sim.name());
        assert!(
            report.mismatches[0].contains("not registered"),
            "{report:?}"
        );
    }
}

#[test]
fn wide_input_round_trips() {
    let tmp = tempfile::tempdir().unwrap();
    let rtl = write_rtl(tmp.path(), "wide", WIDE);
    let harness = Harness {
        dut: "wide".into(),
        inputs: vec![PortSpec::new("a_i", 200), PortSpec::new("s_i", 3)],
        outputs: vec![PortSpec::new("y_o", 200), PortSpec::new("f_o", 5)],
        timing: Timing::Combinational,
    };
    let mut rng = XorShift(12345);
    let vectors: Vec<Vector> = (0..64)
        .map(|i| {
            let mut a = Bits::zero(200);
            for word in 0..3 {
                a.set_field(64 * word, 64, rng.next());
            }
            a.set_field(192, 8, rng.next() & 0xff);
            if i == 0 {
                a = Bits::zero(200);
                a.set_bit(0, true); // the rotate carries bit 0 to bit 199
            }
            let s = i % 8;
            let mut y = Bits::zero(200);
            for bit in 0..200 {
                y.set_bit(bit, a.bit((bit + 1) % 200));
            }
            let f = a.field(0, 5) ^ a.field(195, 5) ^ s;
            Vector {
                inputs: vec![a, Bits::from_u64(s, 3)],
                expected: vec![y, Bits::from_u64(f, 5)],
            }
        })
        .collect();
    let tb = write_testbench(&tmp.path().join("tb"), &harness, &vectors).unwrap();
    lint_both(&rtl, &tb);
    // 203 input bits: 51 hex digits per line, the top digit holding 3 bits.
    let stim = std::fs::read_to_string(&tb.stimulus).unwrap();
    assert!(stim.lines().all(|l| l.len() == 51));
    for sim in simulators() {
        let report = sim.run(&rtl, &tb, &tmp.path().join("work")).unwrap();
        assert_eq!(
            (report.passed, report.failed),
            (64, 0),
            "{}: {report:?}",
            sim.name()
        );
    }
}

#[test]
fn missing_or_short_vector_files_give_an_error_not_a_pass() {
    let tmp = tempfile::tempdir().unwrap();
    let rtl = write_rtl(tmp.path(), "mix", MIX);
    let harness = mix_harness("mix", Timing::Combinational);
    let vectors = mix_vectors(20);
    let tb = write_testbench(&tmp.path().join("tb"), &harness, &vectors).unwrap();

    // A file with fewer lines than vectors.
    let expected = std::fs::read_to_string(&tb.expected).unwrap();
    let short: String = expected
        .lines()
        .take(10)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&tb.expected, short).unwrap();
    for sim in simulators() {
        let err = sim.run(&rtl, &tb, &tmp.path().join("work")).unwrap_err();
        assert!(
            matches!(err, Error::NoSummary { .. }),
            "{}: {err}",
            sim.name()
        );
    }

    // No file at all.
    std::fs::remove_file(&tb.expected).unwrap();
    for sim in simulators() {
        let err = sim.run(&rtl, &tb, &tmp.path().join("work")).unwrap_err();
        assert!(
            matches!(err, Error::NoSummary { .. }),
            "{}: {err}",
            sim.name()
        );
    }
}

#[test]
fn broken_rtl_is_a_build_error_with_the_tools_message() {
    let tmp = tempfile::tempdir().unwrap();
    let rtl = write_rtl(tmp.path(), "mix", &MIX.replace("a_i ^", "a_oops ^"));
    let tb = write_testbench(
        &tmp.path().join("tb"),
        &mix_harness("mix", Timing::Combinational),
        &mix_vectors(4),
    )
    .unwrap();
    let err = Icarus.run(&rtl, &tb, &tmp.path().join("work")).unwrap_err();
    match &err {
        Error::Tool(hdl_util::Error::ToolFailed { tool, output, .. }) => {
            assert_eq!(tool, "iverilog");
            assert!(output.contains("a_oops"), "{err}");
        }
        other => panic!("expected a build failure, got {other}"),
    }
    let err = verilator_lint(&[rtl[0].clone(), tb.source.clone()], &tb.top).unwrap_err();
    assert!(err.to_string().contains("a_oops"), "{err}");
}

/// Run a built simulation the way a runner that trusts exit statuses does (FuseSoC, make, a CI):
/// in the testbench's folder, with nothing but the program. Returns whether it exited 0, and
/// what it printed.
fn run_directly(mut cmd: std::process::Command, tb: &Testbench) -> (bool, String) {
    let out = cmd.current_dir(tb.dir()).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn failing_testbenches_exit_non_zero_when_run_directly() {
    let tmp = tempfile::tempdir().unwrap();
    let rtl = write_rtl(tmp.path(), "mix", MIX);
    let harness = mix_harness("mix", Timing::Combinational);
    let good = mix_vectors(40);
    let tb = write_testbench(&tmp.path().join("tb"), &harness, &good).unwrap();

    // Build once each: Verilator through its driver (the binary is what any runner builds with
    // `verilator --binary`), Icarus by hand with the command a user would type.
    let work = tmp.path().join("work");
    Verilator.run(&rtl, &tb, &work).unwrap();
    let verilator_binary = work.join("verilator").join(format!("V{}", tb.top));
    let image = tmp.path().join("direct.vvp");
    let built = std::process::Command::new("iverilog")
        .args(["-g2005", "-s", &tb.top, "-o"])
        .arg(&image)
        .args(&rtl)
        .arg(&tb.source)
        .status()
        .unwrap();
    assert!(built.success());
    let runs = || {
        let mut vvp = std::process::Command::new("vvp");
        vvp.arg(&image);
        [
            ("vvp", run_directly(vvp, &tb)),
            (
                "verilator",
                run_directly(std::process::Command::new(&verilator_binary), &tb),
            ),
        ]
    };

    for (sim, (ok, text)) in runs() {
        assert!(ok, "{sim}: correct vectors must exit 0:\n{text}");
        assert!(text.contains("mix: 40 passed, 0 failed"), "{sim}:\n{text}");
    }

    // One corrupted expected value: the summary says so and the exit status is non-zero.
    let mut corrupted = good.clone();
    let wrong = corrupted[5].expected[0].field(0, 8) ^ 0x01;
    corrupted[5].expected[0] = Bits::from_u64(wrong, 8);
    write_testbench(&tmp.path().join("tb"), &harness, &corrupted).unwrap();
    for (sim, (ok, text)) in runs() {
        assert!(!ok, "{sim}: a mismatch must exit non-zero:\n{text}");
        assert!(text.contains("mix: 39 passed, 1 failed"), "{sim}:\n{text}");
    }

    // A missing vector file: no verdict, and a non-zero exit status.
    std::fs::remove_file(&tb.stimulus).unwrap();
    for (sim, (ok, text)) in runs() {
        assert!(
            !ok,
            "{sim}: a missing vector file must exit non-zero:\n{text}"
        );
        assert!(!text.contains("passed,"), "{sim}:\n{text}");
    }
}

/// `y_o` is two 4-bit lanes, checked only where `v_o` (= `b_i`) has the lane's bit set:
/// `y_o = a_i`, or, in the mutant, `a_i` with lane 1's low bit flipped.
fn lanes_dut(flip: bool) -> String {
    let y = if flip { "a_i ^ 8'h10" } else { "a_i" };
    format!(
        "module lanes (\n  input  wire [7:0] a_i,\n  input  wire [1:0] b_i,\n  \
         output wire [7:0] y_o,\n  output wire [1:0] v_o\n);\n  assign y_o = {y};\n  \
         assign v_o = b_i;\nendmodule\n"
    )
}

/// A don't-care lane may hold anything: expectations that are wrong only in lanes whose
/// qualifier bit is 0 pass, in both simulators; a DUT wrong in a checked lane fails exactly
/// the vectors that check that lane.
#[test]
fn dont_care_lanes_are_skipped_and_checked_lanes_are_not() {
    let tmp = tempfile::tempdir().unwrap();
    let harness = Harness {
        dut: "lanes".into(),
        inputs: vec![PortSpec::new("a_i", 8), PortSpec::new("b_i", 2)],
        outputs: vec![
            PortSpec::new("y_o", 8).checked_where("v_o"),
            PortSpec::new("v_o", 2),
        ],
        timing: Timing::Combinational,
    };
    // Lane k of the expectation is right where b bit k is 1, and wrong (inverted) elsewhere.
    let vectors: Vec<Vector> = (0..64u64)
        .map(|i| {
            let (a, b) = ((i * 37) & 0xff, i & 3);
            let keep = (if b & 1 == 1 { 0x0f } else { 0 }) | (if b & 2 == 2 { 0xf0 } else { 0 });
            Vector {
                inputs: vec![Bits::from_u64(a, 8), Bits::from_u64(b, 2)],
                expected: vec![Bits::from_u64(a ^ (!keep & 0xff), 8), Bits::from_u64(b, 2)],
            }
        })
        .collect();
    let tb = write_testbench(&tmp.path().join("tb"), &harness, &vectors).unwrap();
    let rtl = write_rtl(tmp.path(), "lanes", &lanes_dut(false));
    lint_both(&rtl, &tb);
    for sim in simulators() {
        let report = sim.run(&rtl, &tb, &tmp.path().join("work")).unwrap();
        assert_eq!((report.passed, report.failed), (64, 0), "{report:?}");
    }
    std::fs::create_dir_all(tmp.path().join("mutant")).unwrap();
    let mutant = write_rtl(&tmp.path().join("mutant"), "lanes", &lanes_dut(true));
    let report = Icarus.run(&mutant, &tb, &tmp.path().join("work")).unwrap();
    // Lane 1 is checked in the vectors with b = 2 or 3: half of them.
    assert_eq!((report.passed, report.failed), (32, 32), "{report:?}");
}
