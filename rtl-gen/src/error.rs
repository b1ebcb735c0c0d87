//! The error type of `rtl-gen`: every variant prints as one line naming the bad value and what
//! is allowed; the command-line front end prints it and exits with status 2.

use models::HashKind;
use std::path::PathBuf;

/// Everything `rtl-gen` refuses or fails at.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A configuration the models refuse.
    #[error("{0}")]
    Model(#[from] models::Error),
    /// A rank-deficient hash without `--allow-rank-deficient`.
    #[error("{0} (pass --allow-rank-deficient to generate it anyway)")]
    RankDeficient(models::Error),
    /// `--configurable` for a kind without configuration.
    #[error("kind {0} has nothing to configure: --configurable is not available for it")]
    NothingToConfigure(HashKind),
    /// A fixed hasher without its configuration fields.
    #[error("a fixed {kind} hasher needs its configuration ({fields}); give it, or pass --configurable", kind = .0, fields = .0.fields().join(", "))]
    MissingConfiguration(HashKind),
    /// A configuration file that is not valid JSON or has unknown keys.
    #[error("{path}: {message}")]
    ConfigFile {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column.
        message: String,
    },
    /// A command-line value that cannot be parsed.
    #[error("{flag} {value}: {message}")]
    BadFlag {
        /// The flag.
        flag: &'static str,
        /// The value given.
        value: String,
        /// What is allowed.
        message: String,
    },
    /// A folder that is not a generated block.
    #[error("{path}: {message}")]
    NotABlock {
        /// The folder.
        path: PathBuf,
        /// What is missing.
        message: String,
    },
    /// A folder that is not an emitted sweep (`rtl-gen sweep point` / `collect`).
    #[error("{path}: {message}")]
    NotASweep {
        /// The folder.
        path: PathBuf,
        /// What is missing or wrong.
        message: String,
    },
    /// An emitted sweep collected before every point has its record.
    #[error(
        "{path}: {missing} of {total} points have no record: {names} (run the job file to \
         finish them, or pass --allow-missing to collect the rest)"
    )]
    IncompleteSweep {
        /// The sweep's folder.
        path: PathBuf,
        /// How many points have no record.
        missing: usize,
        /// How many points the sweep has.
        total: usize,
        /// The first missing points' names.
        names: String,
    },
    /// A trace the search refuses, with the line at fault.
    #[error("{path}: {source}")]
    Trace {
        /// The trace file.
        path: PathBuf,
        /// What is wrong, with its line number.
        source: models::search::TraceError,
    },
    /// Something rtl-gen did not write is where it would write: refused without `--force`.
    #[error(
        "{path}: {what} is in the way and rtl-gen did not write it; nothing was changed \
         (choose another output, or pass --force to replace it)"
    )]
    NotOurs {
        /// The destination.
        path: PathBuf,
        /// What is there, in words (`a folder without rtl-gen's manifest or marker`).
        what: &'static str,
    },
    /// A file or folder that cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The golden model's C library (for DPI-C co-simulation) is missing.
    #[error("{0}")]
    GoldenLibrary(String),
    /// A testbench or simulator failure.
    #[error("{0}")]
    Testbench(#[from] testbenches::Error),
    /// A synthesis failure.
    #[error("{0}")]
    Synth(#[from] synth::Error),
    /// A place-and-route failure (qflow, nextpnr).
    #[error("{0}")]
    Pnr(#[from] synth::pnr::Error),
    /// A proof or mutation run that could not start or finish.
    #[error("{0}")]
    Prove(#[from] ProveError),
    /// A Vortex build or run that failed.
    #[error("{0}")]
    Vortex(#[from] VortexError),
    /// OpenRAM (or its Python environment) failed to make an SRAM macro.
    #[error("OpenRAM could not make {name}: {reason}; log: {}", log.display())]
    OpenRam {
        /// The macro's name.
        name: String,
        /// What failed.
        reason: String,
        /// The log of the step that failed.
        log: PathBuf,
    },
}

impl Error {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io { path, source }
    }

    /// The message of this error for a run given the flags `given` says were given: a model's
    /// out-of-range value is named by the flag that gave it (`--banks 3: out of range: ...`)
    /// when that flag was given, by its key otherwise (a `--config` file's `banks = 3 ...`).
    /// The command line asks its arguments; the Python package its function's parameters.
    pub fn message_given(&self, given: impl Fn(&str) -> bool) -> String {
        if let Error::Model(models::Error::OutOfRange {
            name,
            value,
            allowed,
        }) = self
        {
            let own = format!("--{}", name.replace('_', "-"));
            // A model's `w` is the bank count, `--banks` on the command line (`--w` before).
            let flags: Vec<&str> = match name.as_str() {
                "w" => vec!["--banks", &own],
                _ => vec![&own],
            };
            if let Some(flag) = flags.into_iter().find(|flag| given(flag)) {
                return format!("{flag} {value}: out of range: allowed {allowed}");
            }
        }
        self.to_string()
    }
}

/// Why a proof or a mutation run could not start or finish (`rtl-gen prove`, `rtl-gen
/// mutate`). A proof that failed is not an error (it is the proof's outcome); these are the
/// cases where there is no verdict: a block folder the adapter cannot read, a block with no
/// reference, a Yosys run that ended without answering.
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
        /// What the referees cover, in words.
        covered: String,
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

/// What a Vortex build or run could not do: a tool that failed (with its log), or a copy of
/// Vortex that is not the pinned one.
#[derive(Debug, thiserror::Error)]
pub enum VortexError {
    /// A build step that failed; its output is in `log`.
    #[error("{step} failed (exit status {status}); its output is in {log}{tail}", log = .log.display(), tail = tail_text(.tail))]
    Step {
        /// What was being built.
        step: String,
        /// The exit status, or `signal` / `not started`.
        status: String,
        /// The log with the tool's output.
        log: PathBuf,
        /// The log's last lines.
        tail: String,
    },
    /// A run that had to pass (a trace's) and did not.
    #[error("{what} failed its check; its output is in {log}", log = .log.display())]
    Failed {
        /// The run.
        what: String,
        /// Its output.
        log: PathBuf,
    },
    /// A kernel run that did not finish in time.
    #[error("{what} did not finish in {seconds} s (--timeout); its output is in {log}", log = .log.display())]
    Timeout {
        /// The run.
        what: String,
        /// The limit.
        seconds: u64,
        /// The log with its output so far.
        log: PathBuf,
    },
}

fn tail_text(tail: &str) -> String {
    if tail.is_empty() {
        String::new()
    } else {
        format!(": ...{}", tail.replace('\n', " | "))
    }
}
