//! The random address permute-shift (RAP) of Nakano, Matsumae and Ito in hardware, and the
//! presentation of its congestion simulator.
//!
//! The converter maps element `(row_i, col_i)` of a `w x w` matrix to address
//! `row_i * w + ((col_i + shift[row_i]) mod w)` in bank `(col_i + shift[row_i]) mod w`: the
//! circuit the paper proposes to embed in a GPU (section I). RAP's shifts are a permutation of
//! `0..w`, RAS's independent values; either is baked in or held in a register file loaded at run
//! time, and the outputs may be registered. Any `w` from 2 to 1024 (a power of two needs no
//! arithmetic beyond one adder).
//!
//! - [`design`]: the validated request ([`RapDesign`]);
//! - [`logic`]: its module in the RTL representation;
//! - [`vectors`]: test vectors from the golden model, `models::rap::ShiftLayout`;
//! - [`block`]: the block folder (RTL, manifest, filelist, core, testbench);
//! - [`congestion`]: tables, JSON lines and plots of `rtl-gen congestion`.

pub mod block;
pub mod congestion;
pub mod design;
pub mod logic;
pub mod vectors;

pub use design::{ConverterMap, RapConfig, RapDesign, MAX_W};
