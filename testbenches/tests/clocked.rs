//! `Timing::Clocked`: a DUT with state (a register a vector may write) and combinational
//! outputs, checked before each rising edge, under Icarus Verilog and Verilator.

use std::path::PathBuf;

use testbenches::lint::{iverilog_compile, verilator_lint};
use testbenches::{
    write_testbench, Bits, Harness, Icarus, PortSpec, Simulator, Timing, Vector, Verilator,
};

/// `y_o = acc_q ^ a_i`; a rising edge with `we_i` loads `acc_q <= a_i`; reset clears `acc_q`.
const ACC: &str = "\
module acc (
  input  wire       clk_i,
  input  wire       rst_ni,
  input  wire [7:0] a_i,
  input  wire [0:0] we_i,
  output wire [7:0] y_o
);
  reg [7:0] acc_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q <= 8'h00;
    end else if (we_i[0]) begin
      acc_q <= a_i;
    end
  end
  assign y_o = acc_q ^ a_i;
endmodule
";

fn vectors(n: u64, skew: u64) -> Vec<Vector> {
    let mut acc = 0u64;
    (0..n)
        .map(|i| {
            let a = (i * 37 + 11) & 0xff;
            let we = u64::from(i % 3 == 0);
            let v = Vector {
                inputs: vec![Bits::from_u64(a, 8), Bits::from_u64(we, 1)],
                // The output sees the state before this vector's edge.
                expected: vec![Bits::from_u64(acc ^ a ^ skew, 8)],
            };
            if we == 1 {
                acc = a;
            }
            v
        })
        .collect()
}

#[test]
fn clocked_dut_passes_with_the_state_model_and_fails_without_it() {
    let tmp = tempfile::tempdir().unwrap();
    let rtl = tmp.path().join("acc.v");
    std::fs::write(&rtl, ACC).unwrap();
    let rtl: Vec<PathBuf> = vec![rtl];
    let harness = Harness {
        dut: "acc".into(),
        inputs: vec![PortSpec::new("a_i", 8), PortSpec::new("we_i", 1)],
        outputs: vec![PortSpec::new("y_o", 8)],
        timing: Timing::Clocked,
    };
    let tb = write_testbench(&tmp.path().join("tb"), &harness, &vectors(60, 0)).unwrap();
    let mut files = rtl.clone();
    files.push(tb.source.clone());
    verilator_lint(&files, "tb_acc").unwrap();
    iverilog_compile(&files, "tb_acc").unwrap();
    for sim in [&Icarus as &dyn Simulator, &Verilator] {
        let report = sim.run(&rtl, &tb, &tmp.path().join("work")).unwrap();
        assert_eq!((report.passed, report.failed), (60, 0), "{report:?}");
    }
    let tb = write_testbench(&tmp.path().join("tb"), &harness, &vectors(60, 1)).unwrap();
    let report = Icarus.run(&rtl, &tb, &tmp.path().join("work")).unwrap();
    assert_eq!(report.failed, 60, "{report:?}");
}
