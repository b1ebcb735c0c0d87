//! The golden models as a C library, for simulators that call them through DPI-C.
//!
//! A DPI-C testbench (see the `testbenches` crate's `dpi` module) draws every vector from the
//! model while the simulation runs, instead of reading vector files: no file is written or
//! parsed, and the number of vectors is bounded only by time. This crate builds as a static
//! library (`libgolden_dpi.a`) exporting, for bank hashers,
//!
//! ```c
//! void *golden_hash_open(const char *plan);   // NULL, and a message on stderr, if the plan is bad
//! int golden_hash_round(void *model, int lanes, svBitVecVal *stimulus, svBitVecVal *expected);
//! void golden_hash_close(void *model);
//! ```
//!
//! `plan` is the path of a JSON [`HashPlan`]. Each `round` writes the next `lanes` vectors side
//! by side, each `{addr_i, cfg_i}` and the bank the model computes for it, and returns how many
//! it wrote (fewer than `lanes`, down to 0, once the stream is exhausted). The stream is [`models::hash_stimulus::HashStimulus`], the one the file-based
//! testbench's vectors come from, so both check the same vectors in the same order.

#![warn(missing_docs)]

pub mod hash;

pub use hash::{HashPlan, HashPlanStimulus};

/// This build's tag: the build unit's build-script folder (see `build.rs`). The static library
/// holds it (as [`GOLDEN_DPI_BUILD_TAG`]) and so does every program linking this crate, so a
/// program finds the static library built with it by looking for its tag, not by file dates.
pub const BUILD_TAG: &str = env!("GOLDEN_DPI_BUILD_TAG");

/// [`BUILD_TAG`], exported so that it stays in the static library.
#[no_mangle]
#[used]
pub static GOLDEN_DPI_BUILD_TAG: &str = BUILD_TAG;
