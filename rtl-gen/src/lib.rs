//! `rtl-gen`: synthesizable Verilog for GPU shared-memory hardware (bank hashers, the RAP
//! address converter, the D²MA engine), checked against the golden models of the `models`
//! crate.
//!
//! - [`block`]: the block contract every family implements, and the one render and writer of
//!   block folders;
//! - [`rtl`]: the typed RTL representation and its Verilog-2005 emitter;
//! - [`d2ma`]: the D²MA engine's blocks (controller array, AGEN, RAW check) and their vectors;
//! - [`hash`]: the bank hashers (fixed, configurable, pipelined) and their test vectors;
//! - [`manifest`]: the manifest, filelist and FuseSoC core written beside every block;
//! - [`output`]: safe, atomic, interruptible writing of block folders and files;
//! - [`limits`]: the largest value of every count a user gives;
//! - [`mutate`]: mutation testing of generated blocks against their testbenches and Yosys;
//! - [`rap`]: the RAP address converter and the congestion simulator's tables and plots;
//! - [`cosim`]: co-simulation of a generated block folder;
//! - [`qor`]: synthesis of a generated block folder (`synth.json`);
//! - [`experiments`]: the sweeps every family shares (in process and emitted as jobs);
//! - [`families`]: the registry of every family's part in the generic experiments;
//! - [`flow`]: the main job: a block of every family generated, co-simulated, synthesized;
//! - [`plot`]: the SVG line charts of the sweeps and of the congestion tables;
//! - [`prove`]: proofs by Yosys' SAT solver that a block equals an independent reference;
//! - [`cuda`]: CUDA/C headers with the software form of a hash or a RAW/RAS/RAP layout;
//! - [`smem`]: the banked shared memory with any hasher or RAP in front of its banks;
//! - [`swizzle`]: the reports, pictures and CUDA headers of `rtl-gen swizzle`;
//! - [`trace`]: kernel trace files;
//! - [`vortex`]: Vortex running kernels with its own or a generated local memory.
//!
//! The crate root holds what every family shares; each family's folder holds its design, its
//! [`block::Block`] implementation, its vectors, its parts in the shared experiments (a
//! referee for [`prove`], a sweep space for [`experiments::sweep`]; [`families`] lists them)
//! and the experiments only it has ([`hash::structures`], [`hash::target_sweep`],
//! [`hash::search_report`]; [`rap::congestion`]).

pub mod block;
pub mod conflict;
pub mod cosim;
pub mod cuda;
pub mod d2ma;
pub mod error;
pub mod experiments;
pub mod families;
pub mod flow;
pub mod fusesoc;
pub mod hash;
pub mod json_input;
pub mod limits;
pub mod manifest;
pub mod mutate;
pub mod openram;
pub mod output;
pub mod plot;
pub mod pnr;
pub mod prove;
pub mod qor;
pub mod rap;
pub mod rdl;
pub mod rtl;
pub mod smem;
pub mod sram;
pub mod swizzle;
pub mod trace;
pub mod vortex;

pub use error::Error;
