//! Leaf utilities the HDL crates share, so that `testbenches` and `synth` are siblings rather
//! than one depending on the other:
//!
//! - [`Bits`]: a bit-vector of any width, the value type of stimulus, expected outputs and
//!   configuration words;
//! - [`ExternalTool`]: finding Verilator, Icarus Verilog, Yosys... (environment override, then
//!   `PATH`, with an install hint when missing), and [`run_logged`] with its output helpers
//!   [`first_error_lines`] and [`last_lines`]; every tool runs through [`children`], so that
//!   an interrupt ends it too;
//! - [`CodeWriter`]: an indented text builder with an indent guard, for every emitter of
//!   Verilog.

#![warn(missing_docs)]

pub mod bits;
pub mod children;
pub mod code;
pub mod error;
pub mod tool;

pub use bits::Bits;
pub use code::{CodeWriter, LINE_WIDTH};
pub use error::Error;
pub use tool::{first_error_lines, last_lines, run_logged, ExternalTool, Logged};
