//! Self-checking testbenches for generated RTL, and the drivers that run them under Verilator
//! and Icarus Verilog.
//!
//! The crate knows nothing about hashers. A caller describes the DUT's interface as a
//! [`Harness`], computes [`Vector`]s with its golden model, writes the testbench with
//! [`write_testbench`] and runs it with a [`Simulator`] (see [`simulator_by_name`]); the
//! [`CosimReport`] says how many vectors passed. [`lint`] holds the lint checks every emitted
//! file must pass. The value type [`Bits`] and the tool finder come from the leaf crate
//! `hdl-util`, which the `synth` crate shares.
//!
//! ```no_run
//! use testbenches::{simulator_by_name, write_testbench, Bits, Harness, PortSpec, Timing, Vector};
//! # fn main() -> Result<(), testbenches::Error> {
//! let harness = Harness {
//!     dut: "swap".into(),
//!     inputs: vec![PortSpec::new("a_i", 8)],
//!     outputs: vec![PortSpec::new("y_o", 8)],
//!     timing: Timing::Combinational,
//! };
//! let vectors: Vec<Vector> = (0..256u64)
//!     .map(|a| Vector {
//!         inputs: vec![Bits::from_u64(a, 8)],
//!         expected: vec![Bits::from_u64(((a & 0xf) << 4) | (a >> 4), 8)],
//!     })
//!     .collect();
//! let tb = write_testbench("out/tb".as_ref(), &harness, &vectors)?;
//! let report = simulator_by_name("verilator")?.run(&["out/swap.v".into()], &tb, "out/work".as_ref())?;
//! assert_eq!(report.failed, 0);
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

pub mod dpi;
pub mod error;
pub mod harness;
pub mod lint;
pub mod simulator;
pub mod testbench;

pub use dpi::{write_dpi_testbench, DpiTestbench};
pub use error::Error;
pub use harness::{Harness, PortSpec, Timing, Vector};
pub use hdl_util::Bits;
pub use simulator::{simulator_by_name, CosimReport, Icarus, Simulator, Verilator};
pub use testbench::{testbench_source, write_testbench, Testbench, TIMESCALE};
