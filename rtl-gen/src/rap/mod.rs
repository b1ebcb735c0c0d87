//! The random address permute-shift (RAP) of Nakano, Matsumae and Ito in hardware, and the
//! presentation of its congestion simulator.
//!
//! - [`congestion`]: tables, JSON lines and plots of `rtl-gen congestion`.

pub mod congestion;
