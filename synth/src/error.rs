//! The crate's error type.

use std::path::PathBuf;

/// Everything that can stop [`crate::synthesize`] from producing a report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No usable Yosys binary was found (neither `$YOSYS` nor `yosys` on `PATH` runs).
    #[error(
        "Yosys not found: {detail}. Install it with `apt-get install -y yosys`, \
         or set YOSYS to the path of a yosys binary"
    )]
    YosysMissing {
        /// What was tried and how it failed.
        detail: String,
    },

    /// The liberty file could not be read, decompressed or recognised.
    #[error("liberty file {}: {reason}", path.display())]
    Liberty {
        /// The liberty path as the caller gave it.
        path: PathBuf,
        /// Why it is unusable.
        reason: String,
    },

    /// The request itself is malformed (no files, an empty or unsafe top name, ...).
    #[error("invalid synthesis request: {0}")]
    InvalidRequest(String),

    /// A Verilog input file does not exist or cannot be read.
    #[error("Verilog input {}: {source}", path.display())]
    Input {
        /// The file as given in the request.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },

    /// Writing into the work directory failed.
    #[error("cannot write {}: {source}", path.display())]
    WorkDir {
        /// The file or folder that could not be written.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },

    /// Yosys ran and rejected the design (exit status non-zero).
    #[error("Yosys rejected design `{top}`: {message} (full log: {})", log.display())]
    Rejected {
        /// The requested top module.
        top: String,
        /// Yosys' `ERROR:` line (with its `file:line:` prefix when Yosys gives one), or
        /// the exit status and the last lines of its error output when there is none.
        message: String,
        /// The Yosys log file.
        log: PathBuf,
    },

    /// [`crate::check`] found a problem in a design (or Yosys could not read it).
    #[error("Yosys check of `{top}` failed: {message}")]
    CheckFailed {
        /// The top module that was checked.
        top: String,
        /// Yosys' `ERROR:` line, then the warnings that name the problems.
        message: String,
    },

    /// [`crate::prove_equivalent`] could not prove two versions of a design equivalent.
    #[error("`{top}` is not proved equivalent to its previous version: {message}")]
    NotEquivalent {
        /// The top module compared.
        top: String,
        /// Why: the counterexample, the unproven signals, or Yosys' error.
        message: String,
    },

    /// Liberty mode left generic Yosys cells that the library has no cell for, so an
    /// area would silently leave them out.
    #[error(
        "the liberty library has no cell for {cells} left in the netlist \
         (full log: {})", log.display()
    )]
    Unmapped {
        /// The unmapped cell types with their counts, e.g. `$_DLATCH_P_ x2`.
        cells: String,
        /// The Yosys log file.
        log: PathBuf,
    },

    /// No usable OpenSTA binary was found (neither `$STA` nor `sta` on `PATH` runs).
    #[error("OpenSTA not found: {detail}")]
    StaMissing {
        /// What was tried and how it failed.
        detail: String,
    },

    /// OpenSTA printed an `Error:` line (it exits 0 on most errors) or failed.
    #[error("OpenSTA failed: {message} (full log: {})", log.display())]
    Sta {
        /// Its first `Error:` line, or how it ended.
        message: String,
        /// Its log.
        log: PathBuf,
    },

    /// A `--wire-load` model the liberty file does not have.
    #[error("wire-load model {model:?} is not in {}: it has {}", liberty.display(), if models.is_empty() { "none".to_string() } else { models.join(", ") })]
    WireLoad {
        /// The model asked for.
        model: String,
        /// The liberty file.
        liberty: PathBuf,
        /// The models it has.
        models: Vec<String>,
    },

    /// Yosys succeeded but one of its reports did not have the expected shape.
    #[error("cannot parse {what} in {}", file.display())]
    Parse {
        /// Which value was looked for.
        what: String,
        /// The report file that was read.
        file: PathBuf,
    },
}
