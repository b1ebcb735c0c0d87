//! [`Error`]: everything that can stop a testbench from being written, built or run.
//!
//! A co-simulation that ran to its summary line and counted failures is *not* an error: it is a
//! [`CosimReport`](crate::CosimReport) with `failed > 0`, and the caller decides. Errors are the
//! cases where no trustworthy verdict exists: a tool is missing, the RTL does not build, or the
//! simulation never printed its summary.

use std::path::PathBuf;

/// The error type of the `testbenches` crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A tool is missing or failed (a lint, a compile, a simulator build), or a file or process
    /// operation failed.
    #[error(transparent)]
    Tool(#[from] hdl_util::Error),

    /// The harness cannot be turned into a testbench (bad port name or width, bad latency...).
    #[error("invalid harness: {0}")]
    InvalidHarness(String),

    /// A vector does not match the harness (wrong number of values or wrong widths).
    #[error("invalid vector {index}: {reason}")]
    InvalidVector {
        /// The vector's index in the slice given to `write_testbench`.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },

    /// The simulation ended without its `<dut>: P passed, F failed` line (a crash, a timeout, a
    /// `$readmemh` failure, a wrong vector count): there is no verdict, so this is no pass.
    #[error(
        "{simulator} simulation of {top} gave no valid summary line ({reason}); log: {log}\n{tail}"
    )]
    NoSummary {
        /// The simulator, e.g. `verilator`.
        simulator: String,
        /// The testbench's top module.
        top: String,
        /// Why no verdict could be read.
        reason: String,
        /// The full simulation log.
        log: PathBuf,
        /// The last lines of that log.
        tail: String,
    },

    /// `simulator_by_name` was given a name it does not know.
    #[error("unknown simulator `{name}` (allowed: {allowed})")]
    UnknownSimulator {
        /// The name that was given.
        name: String,
        /// The names that are accepted, comma-separated.
        allowed: String,
    },
}

impl Error {
    /// Wrap an I/O error with what was being done (`context` should name the path).
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Error {
        hdl_util::Error::io(context, source).into()
    }
}
