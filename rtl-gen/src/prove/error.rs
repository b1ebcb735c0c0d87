//! [`ProveError`]: why a proof or a mutation run could not start or finish. A proof that
//! failed is not an error (it is an [`Outcome`](super::Outcome)); these are the cases where
//! there is no verdict: a block folder the adapter cannot read, a block with no reference, a
//! Yosys run that ended without answering.

use std::path::PathBuf;

/// Everything `rtl-gen prove` and `rtl-gen mutate` refuse or fail at; each prints as one line.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// The manifest lacks a key the prover reads, or holds a value it cannot use.
    #[error("{path}: manifest key `{key}` = {value}: {allowed}")]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// The key, with its parents (`configuration.tables.shift`).
        key: String,
        /// The value found (or `missing`), shortened.
        value: String,
        /// What the prover needs there.
        allowed: String,
    },
    /// A block whose family has no independent reference to prove against.
    #[error("{path}: nothing to prove for a `{family}` block: `rtl-gen prove` covers {covered}")]
    NoReference {
        /// The block folder.
        path: PathBuf,
        /// Its family, as the manifest names it.
        family: String,
        /// The families that have a reference.
        covered: &'static str,
    },
    /// A bound given on the command line that is out of range.
    #[error("{flag} {value}: {allowed}")]
    Bound {
        /// The flag.
        flag: &'static str,
        /// The value given.
        value: String,
        /// What is allowed, and why.
        allowed: String,
    },
    /// Yosys ran but gave no verdict (a crash, a parse error in the design, no result line).
    #[error("yosys gave no verdict for {what} ({reason}); log: {log}")]
    Yosys {
        /// What was being checked.
        what: String,
        /// Why there is no verdict (Yosys' first error line when it printed one).
        reason: String,
        /// The full log.
        log: PathBuf,
    },
}
