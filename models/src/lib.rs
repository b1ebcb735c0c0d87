//! Golden models of GPU shared memory: bank mapping, congestion, layouts and the D²MA engine.
//!
//! Pure Rust, no RTL and no I/O: the generators in `rtl-gen` turn these specifications into
//! Verilog, and the testbenches check that Verilog against the functions defined here.
//!
//! - [`geometry`]: the shape of a banked memory (`n` word-address bits, `2^m` banks).
//! - [`hash`]: the hash families of the XOR paper's section 4 and their golden functions.
//! - [`gf2`]: `m x n` matrices over GF(2), the family every XOR-based hash converts to.
//! - [`config`]: the JSON/CLI configuration object shared by manifests and `--config` files.
//! - [`congestion`]: the DMM congestion of one warp access.
//! - [`d2ma`]: the D²MA engine's buffer entry, transfer walk and read-after-write check.
//! - [`patterns`]: the access-pattern classes of the XOR paper's section 3 as generators.
//! - [`software`]: the index a program stores an address at so that a hash picks its bank.
//! - [`rap`]: the RAW, RAS and RAP layouts, the golden model of the RAP converter, and the
//!   congestion simulator behind the RAP paper's Tables II and IV.
//! - [`search`]: hash configuration search, from a kernel's warp accesses to the best hasher.
//! - [`smem`]: the banked shared memory: its map, what an access does and costs, its cycle model.
//! - [`swizzle`]: CuTe, TMA and Triton swizzles as GF(2) maps, their H100 wavefronts, the best
//!   layout for a set of accesses.
//! - [`tma`]: TMA's tensor maps: the descriptor, a load's walk and its shared-memory image.

pub mod config;
pub mod congestion;
pub mod d2ma;
pub mod error;
pub mod geometry;
pub mod gf2;
pub mod hash;
pub mod hash_space;
pub mod hash_stimulus;
pub mod patterns;
pub mod rap;
pub mod search;
pub mod smem;
pub mod software;
pub mod swizzle;
pub mod tma;

pub use config::HashConfigObject;
pub use error::Error;
pub use geometry::Geometry;
pub use gf2::XorMatrix;
pub use hash::{HashConfig, HashFunction, HashKind};
