//! The acceptance check every emitted Verilog file must pass: Yosys reads it, elaborates it
//! under its top module and finds no structural problem.

use std::path::PathBuf;
use std::process::Stdio;

use crate::error::Error;
use crate::script;
use crate::tool;

/// The Yosys commands of [`check`], after the `read_verilog` lines; `{{TOP}}` is the top.
pub const CHECK_COMMANDS: &str = "hierarchy -check -top {{TOP}}; proc; check -assert";

/// Runs `yosys -q -p "read_verilog <files>; hierarchy -check -top <top>; proc; check -assert"`.
///
/// `Ok(())` when Yosys accepts the design: every module it instantiates exists, and `check`
/// finds no multiple drivers, undriven wires or combinational loops. Otherwise
/// [`Error::CheckFailed`] with Yosys' `ERROR:` line and the warnings that explain it;
/// [`Error::Input`] for a file that cannot be read, [`Error::YosysMissing`] without Yosys.
pub fn check(files: &[PathBuf], top: &str) -> Result<(), Error> {
    crate::runner::check_top(top)?;
    let files = canonical(files)?;
    let commands = format!(
        "{}; {}",
        script::read_lines(&files).replace('\n', "; "),
        CHECK_COMMANDS.replace("{{TOP}}", top)
    );
    let run = run_commands(&["-q"], &commands)?;
    if run.success {
        return Ok(());
    }
    let warnings: Vec<&str> = run
        .log
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("Warning:"))
        .take(5)
        .collect();
    let error = run.error();
    Err(Error::CheckFailed {
        top: top.to_string(),
        message: if warnings.is_empty() {
            error
        } else {
            format!("{error} [{}]", warnings.join("; "))
        },
    })
}

/// `files` as absolute paths: [`Error::InvalidRequest`] when there are none, [`Error::Input`]
/// for one that cannot be read.
pub(crate) fn canonical(files: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    if files.is_empty() {
        return Err(Error::InvalidRequest("no Verilog files given".into()));
    }
    files
        .iter()
        .map(|f| {
            std::fs::canonicalize(f).map_err(|source| Error::Input {
                path: f.clone(),
                source,
            })
        })
        .collect()
}

/// What one Yosys run of a command string left: whether it succeeded, and its output.
pub(crate) struct YosysRun {
    /// Yosys exited with status 0.
    pub success: bool,
    /// Its standard output and error, in that order.
    pub log: String,
    status: std::process::ExitStatus,
}

impl YosysRun {
    /// Yosys' `ERROR:` line, or the exit status when it printed none.
    pub fn error(&self) -> String {
        crate::parse::parse_yosys_error(&self.log)
            .unwrap_or_else(|| format!("Yosys exited with {}", self.status))
    }
}

/// Runs `yosys <flags> -p <commands>` with no input; [`Error::YosysMissing`] when Yosys cannot
/// be found or started.
pub(crate) fn run_commands(flags: &[&str], commands: &str) -> Result<YosysRun, Error> {
    let yosys = tool::find_yosys()?;
    let out = hdl_util::children::output(
        yosys
            .command()
            .args(flags)
            .args(["-p", commands])
            .stdin(Stdio::null()),
    )
    .map_err(|e| Error::YosysMissing {
        detail: format!("{} does not run: {e}", yosys.program.display()),
    })?;
    Ok(YosysRun {
        success: out.status.success(),
        log: String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr),
        status: out.status,
    })
}
