//! A small typed RTL representation with run-time widths, and its Verilog-2005 emitter.
//!
//! [`ir`] holds modules, ports, wires, registers and expressions; every expression knows its
//! width when it is built, and the builders refuse width mismatches, so the emitter in
//! [`verilog`] only prints what the representation already decided. It exists to emit clean,
//! lint-free Verilog, not to be a framework.

pub mod ir;
pub mod verilog;

pub use ir::{Direction, Expr, Module, Port, Signal};
