//! Golden models of the D²MA engine (Jamshidi, Samadi, Mahlke, PACT'14): the buffer
//! management table entry, the transfer its address generation performs, and the
//! read-after-write check that replaces `__syncthreads()`.
//!
//! - [`entry`]: the 173-bit entry, its layout, its configuration commands and its validation.
//! - [`transfer`]: the walk of one buffer, one chunk a cycle: segment requests, shared
//!   addresses, halo constant stores, completion.
//! - [`data`]: the data a transfer moves: every element's shared address and source (global,
//!   halo constant, out-of-bounds zero) and the shared-memory image after it.
//! - [`raw`]: whether a shared load must wait for an in-flight buffer.
//! - [`tensor`]: tensor maps in the engine: a load's slot words, its entry, the engine's walk.

pub mod data;
pub mod entry;
pub mod raw;
pub mod tensor;
pub mod transfer;

pub use data::{Extent, Source};
pub use entry::{BufferEntry, Mode, Part, TileShape, ENTRY_BITS};
pub use raw::{must_wait, Guard};
pub use transfer::{Chunk, Progress, Transfer, SEGMENT_BYTES};
