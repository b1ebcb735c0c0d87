//! A small typed RTL representation with run-time widths, and its Verilog-2005 emitter.
//!
//! [`ir`] holds signals and expressions (every expression knows its width when it is built, the
//! builders refuse width mismatches and fold constants), [`module`] the modules built from them
//! (ports with their roles, wires, registers, memories, instances), [`keywords`] the names a
//! signal must not take. The emitter in [`verilog`] only prints what the representation already
//! decided, breaking long lines with [`layout`]; [`wiring`] builds the wide buses, trees and
//! split registers whose lines must stay within that width. It exists to emit clean, readable, lint-free
//! Verilog, not to be a framework. [`vortex_wrapper`] prints the one SystemVerilog file the
//! project writes: the wrapper that presents a core under Vortex's `VX_local_mem` interface.

pub mod ir;
pub mod keywords;
pub mod layout;
pub mod module;
pub mod verilog;
pub mod vortex_wrapper;
pub mod wiring;

pub use ir::{Expr, Signal};
pub use module::{Direction, Memory, Module, Port, PortRole};
