//! TMA's tensor maps: a `cuTensorMapEncodeTiled` descriptor checked with CUDA's rules, a
//! `cp.async.bulk.tensor` load at signed coordinates walked 16 bytes at a time, and the exact
//! shared-memory image (swizzled, out-of-bounds elements filled) an H100 leaves.
//!
//! - [`descriptor`]: the tensor map's parameters and their validation;
//! - [`load`]: the box in shared memory, the walk an address generator follows, the image;
//! - [`silicon`]: the cases run on an H100 (gpu/tma_tensor.cu) and their replay.

pub mod descriptor;
pub mod load;
pub mod silicon;

pub use descriptor::{DataType, Interleave, L2Promotion, OobFill, Swizzle, TensorMap};
pub use load::{chunks, image, BoxLayout, Chunk, GlobalMemory, Image, Load};
