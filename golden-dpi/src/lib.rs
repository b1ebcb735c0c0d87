//! The golden models as a C library, for simulators that call them through DPI-C.
//!
//! A DPI-C testbench (see the `testbenches` crate's `dpi` module) draws every vector from the
//! model while the simulation runs, instead of reading vector files: no file is written or
//! parsed, and the number of vectors is bounded only by time. This crate builds as a static
//! library (`libgolden_dpi.a`) exporting, for bank hashers,
//!
//! ```c
//! void *golden_hash_open(const char *plan);   // NULL, and a message on stderr, if the plan is bad
//! int golden_hash_next(void *model, svBitVecVal *stimulus, svBitVecVal *expected);
//! void golden_hash_close(void *model);
//! ```
//!
//! `plan` is the path of a JSON [`HashPlan`]. Each `next` writes one vector, `{addr_i, cfg_i}`
//! and the bank the model computes for it, and returns 1, or returns 0 when the stream is
//! exhausted. The stream is [`models::hash_stimulus::HashStimulus`], the one the file-based
//! testbench's vectors come from, so both check the same vectors in the same order.

#![warn(missing_docs)]

pub mod hash;

pub use hash::{HashPlan, HashPlanStimulus};
