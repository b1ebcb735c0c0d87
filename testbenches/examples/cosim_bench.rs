//! Times a co-simulation of a small 8-bit DUT under both simulators.
//!
//! `cargo run --release -p testbenches --example cosim_bench -- [VECTORS] [WORK_DIR]` (defaults:
//! 100000 vectors, a fresh temporary folder) prints one JSON report per simulator and timing
//! (combinational and 1-register pipelined). Set `OBJCACHE=` (empty) to time Verilator
//! without ccache.

use std::path::PathBuf;

use testbenches::{
    write_testbench, Bits, Harness, Icarus, PortSpec, Simulator, Timing, Vector, Verilator,
};

const MIX: &str = "\
module mix (
  input  wire [7:0] a_i,
  input  wire [7:0] b_i,
  output wire [7:0] y_o
);
  assign y_o = a_i ^ {b_i[3:0], b_i[7:4]};
endmodule
";

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

fn main() -> Result<(), testbenches::Error> {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(100_000, |s| s.parse().expect("VECTORS must be a number"));
    let tmp;
    let work: PathBuf = match args.next() {
        Some(dir) => dir.into(),
        None => {
            tmp = std::env::temp_dir().join(format!("cosim-bench-{}", std::process::id()));
            tmp.clone()
        }
    };
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let vectors: Vec<Vector> = (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let (a, b) = (state & 0xff, (state >> 8) & 0xff);
            Vector {
                inputs: vec![Bits::from_u64(a, 8), Bits::from_u64(b, 8)],
                expected: vec![Bits::from_u64(a ^ (((b & 0xf) << 4) | (b >> 4)), 8)],
            }
        })
        .collect();
    for (dut, source, timing) in [
        ("mix", MIX, Timing::Combinational),
        ("mix_reg", MIX_REG, Timing::Pipelined { latency: 1 }),
    ] {
        let dir = work.join(dut);
        std::fs::create_dir_all(&dir).expect("creating the work folder");
        let rtl = dir.join(format!("{dut}.v"));
        std::fs::write(&rtl, source).expect("writing the DUT");
        let harness = Harness {
            dut: dut.into(),
            inputs: vec![PortSpec::new("a_i", 8), PortSpec::new("b_i", 8)],
            outputs: vec![PortSpec::new("y_o", 8)],
            timing,
        };
        let tb = write_testbench(&dir.join("tb"), &harness, &vectors)?;
        let sims: [Box<dyn Simulator>; 2] = [Box::new(Verilator), Box::new(Icarus)];
        for sim in sims {
            let report = sim.run(std::slice::from_ref(&rtl), &tb, &dir.join("work"))?;
            println!(
                "{dut} {}",
                serde_json::to_string(&report).expect("serializing")
            );
        }
    }
    Ok(())
}
