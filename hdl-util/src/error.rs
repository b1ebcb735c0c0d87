//! [`Error`]: a tool that is missing, failed, or an I/O operation around it that did.

/// The error type of the `hdl-util` crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An external program (Verilator, Icarus Verilog, Yosys...) could not be found.
    #[error(
        "`{name}` not found: set {env_var} to its path or put it on PATH \
         (Debian/Ubuntu: apt-get install -y {apt_package})"
    )]
    ToolMissing {
        /// The program's name, e.g. `verilator`.
        name: String,
        /// The environment variable that overrides its path, e.g. `VERILATOR`.
        env_var: String,
        /// The Debian package that provides it.
        apt_package: String,
    },

    /// A file or process operation failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done, with the path involved.
        context: String,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },

    /// A tool ran and failed: a lint, a compile or a simulator build. `output` holds the tool's
    /// first error lines.
    #[error("{tool} failed ({status}) for {what}:\n{output}")]
    ToolFailed {
        /// The tool that failed, e.g. `verilator`.
        tool: String,
        /// What it was asked to do, e.g. `lint of top module tb_foo`.
        what: String,
        /// How it ended, e.g. `exit status: 1`.
        status: String,
        /// Its first error lines (or its last lines when no line looks like an error).
        output: String,
    },
}

impl Error {
    /// Wrap an I/O error with what was being done (`context` should name the path).
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            context: context.into(),
            source,
        }
    }
}
