//! The banked shared memory: `lanes` addresses per warp access, `banks` banks of `depth` words,
//! any hasher or RAP in front of the banks, cycle-exact against the congestion model
//! (`models::smem::cycle`).
//!
//! - [`design`]: the validated request ([`SmemDesign`]) and its map ([`MapSpec`]);
//! - [`wiring`]: buses gathered from many parts, and registers split into 64-bit parts;
//! - [`map`]: the per-lane map, address to (bank, row), around a hasher or RAP instance;
//! - [`conflict`]: the pairwise comparison of an accepted access's lanes, and which lanes'
//!   bytes a higher lane overwrites;
//! - [`grant`]: the lanes one pass serves, and whether the pass after it is the last;
//! - [`bank`]: the per-bank request mux and the bank storage (behavioural or an SRAM macro);
//! - [`top`]: the pipeline around them;
//! - [`vectors`]: the cycle-level stimulus and expected outputs from the cycle model;
//! - [`replay`]: a kernel trace run through the RTL, cycles counted by the RTL itself;
//! - [`block`]: the block folder (RTL, manifest, filelist, core, testbench).

pub mod bank;
pub mod block;
pub mod conflict;
pub mod design;
pub mod grant;
pub mod map;
pub mod replay;
pub mod top;
pub mod vectors;
pub mod wiring;

pub use design::{MapSpec, SmemDesign};
