//! The experiments every family shares: a family takes part through a trait defined here and
//! implemented in its own room, listed by the registry (`crate::families`); nothing here names
//! a family.
//!
//! - [`pool`]: the worker threads of every `--jobs`;
//! - [`sweep`]: many blocks of one family generated and synthesized in parallel, tabulated and
//!   plotted (a family gives its points through [`sweep::SweepSpace`]);
//! - [`sweep_jobs`]: the same sweep emitted as jobs for make, Ninja or Slurm, one point a job,
//!   and its records collected into the same results;
//! - [`job_files`]: the Makefile, Ninja file and Slurm script of an emitted sweep.
//!
//! The proofs and the mutants (`crate::prove`, `crate::mutate`) follow the same rule with
//! `prove::Referee`.

pub mod job_files;
pub mod pool;
pub mod sweep;
pub mod sweep_jobs;
