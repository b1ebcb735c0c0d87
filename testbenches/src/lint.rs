//! Lint and compile checks: the project's bar for every Verilog file it emits is
//! `verilator --lint-only -Wall` with nothing suppressed and a clean `iverilog -g2005` compile.

use std::path::PathBuf;
use std::time::Duration;

use crate::error::Error;
use hdl_util::{run_logged, ExternalTool};

/// How long a lint or compile check may take before it is treated as failed.
const CHECK_TIMEOUT: Duration = Duration::from_secs(600);

/// Lines of tool output kept in an error.
const ERROR_LINES: usize = 30;

/// Lint `files` with top module `top` under `verilator --lint-only -Wall --timing`, with no
/// warning suppressed: any warning is a failure, reported with the tool's first lines.
///
/// `--timescale 1ns/1ps` gives a default time unit to files without a `` `timescale `` (rtl-gen's
/// RTL and testbenches have one; a user's or another tool's file may not), which Verilator 5
/// otherwise rejects as `TIMESCALEMOD`; it turns no warning off.
pub fn verilator_lint(files: &[PathBuf], top: &str) -> Result<(), Error> {
    let tool = ExternalTool::find("verilator", "VERILATOR", "verilator")?;
    let mut cmd = tool.command();
    cmd.args([
        "--lint-only",
        "-Wall",
        "--timing",
        "--timescale",
        "1ns/1ps",
        "--top-module",
        top,
    ])
    .args(files);
    check(&tool, cmd, format!("lint of top module {top}"))
}

/// Compile `files` with top module `top` under `iverilog -g2005` (Verilog-2005, the language the
/// project emits), discarding the result; a non-zero exit is a failure.
pub fn iverilog_compile(files: &[PathBuf], top: &str) -> Result<(), Error> {
    let tool = ExternalTool::find("iverilog", "IVERILOG", "iverilog")?;
    let mut cmd = tool.command();
    cmd.args(["-g2005", "-s", top, "-o", "/dev/null"])
        .args(files);
    check(
        &tool,
        cmd,
        format!("Verilog-2005 compile of top module {top}"),
    )
}

/// Run a check command; Ok when it exits 0.
fn check(tool: &ExternalTool, cmd: std::process::Command, what: String) -> Result<(), Error> {
    let log = tempfile_path(tool.name);
    let result = run_logged(cmd, &log, CHECK_TIMEOUT);
    let _ = std::fs::remove_file(&log);
    result?.require_success(tool.name, what, ERROR_LINES)?;
    Ok(())
}

/// A fresh path in the temporary folder for a check's log.
fn tempfile_path(tool: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("testbenches-{tool}-{}-{n}.log", std::process::id()))
}
