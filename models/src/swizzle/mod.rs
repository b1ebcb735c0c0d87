//! Every swizzle as a GF(2) matrix: CuTe, TMA and Triton layouts imported into one address map,
//! their bank conflicts predicted as an H100 serves them, and the best XOR layout for a set of
//! accesses.
//!
//! - [`tile`]: the tile a layout arranges (rows, columns, element size);
//! - [`map`]: the address map, an invertible matrix on the byte-offset bits;
//! - [`layout`]: the layouts as written (`cute:Swizzle<3,4,3>`, `tma:128B`,
//!   `triton:swizzled_shared<...>`, ...) and their maps;
//! - [`export`]: from a map back to every exact form, and to a hash configuration;
//! - [`access`]: rows, columns and `ldmatrix` fragments of 4-, 8- and 16-byte vectors, traces;
//! - [`wavefront`]: the wavefronts of a warp access on an H100;
//! - [`search`]: the layout with the fewest wavefronts for a set of accesses, or the proof that
//!   no XOR layout is conflict-free.

pub mod access;
pub mod export;
pub mod layout;
pub mod map;
pub mod search;
pub mod tile;
pub mod wavefront;

pub use access::{AccessKind, AccessSet, WarpAccess};
pub use layout::{Layout, LayoutError, TmaMode};
pub use map::AddressMap;
pub use tile::{Tile, TileShape};
pub use wavefront::{Instruction, SetCost};
