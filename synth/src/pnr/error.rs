//! What can stop a place-and-route run.

use std::path::{Path, PathBuf};

/// Everything that stops [`crate::pnr::qflow::run`] or [`crate::pnr::ecp5::run`] from
/// producing a report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A tool of the flow is not installed.
    #[error("{tool} not found: {how}")]
    ToolMissing {
        /// The program looked for.
        tool: &'static str,
        /// Where it was looked for and how to install it.
        how: String,
    },

    /// Reading or writing a file of the work folder failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },

    /// A tool of the flow failed.
    #[error("{tool} failed {what}: {message} (log: {})", log.display())]
    ToolFailed {
        /// The tool.
        tool: &'static str,
        /// What it was asked to do.
        what: String,
        /// Its exit status (or `timed out`) and first error lines.
        message: String,
        /// Its log.
        log: PathBuf,
    },

    /// A report of the flow lacks a value the result needs.
    #[error("cannot read {what} from {}", file.display())]
    Parse {
        /// The value looked for.
        what: String,
        /// The report read.
        file: PathBuf,
    },

    /// The flow mapped fewer latches than the design holds (Yosys 0.23's `dfflibmap` drops
    /// latches without a word): the result would not be the design's.
    #[error(
        "qflow kept {found} of the design's {expected} latches (see {}): refusing to report a \
         run that lost latches", log.display()
    )]
    LostLatches {
        /// Latch bits in the design after Yosys' `synth`.
        expected: u64,
        /// Latch cells in the placed netlist.
        found: u64,
        /// The placed design read.
        log: PathBuf,
    },

    /// The placed design has no register-to-register path on a clock, so there is no
    /// frequency to report.
    #[error("nextpnr reported no clock with a register-to-register path (report: {})", report.display())]
    NoClock {
        /// The nextpnr report read.
        report: PathBuf,
    },
}

impl Error {
    /// An I/O error on `path`.
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
