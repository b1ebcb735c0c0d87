//! Running a testbench under a simulator: the [`Simulator`] trait, its [`CosimReport`], and the
//! parsing of the testbench's summary line that both drivers share.
//!
//! One file per simulator: [`verilator`] and [`icarus`].

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::Serialize;

use crate::error::Error;
use crate::testbench::{Testbench, MAX_REPORTED_MISMATCHES};
use hdl_util::{last_lines, run_logged, Logged};

pub mod icarus;
pub mod verilator;

pub use icarus::Icarus;
pub use verilator::Verilator;

/// The environment variable that bounds one build or one simulation, in seconds.
pub const TIMEOUT_ENV: &str = "TESTBENCHES_TIMEOUT_S";

/// The bound on one build or one simulation when [`TIMEOUT_ENV`] is not set: one hour.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(3600);

/// Lines of a log kept in an error.
const TAIL_LINES: usize = 30;

/// The outcome of one co-simulation run that reached its summary line.
///
/// `failed > 0` is a verdict, not an error: the caller decides what a failure means.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CosimReport {
    /// The simulator's name as [`simulator_by_name`] accepts it (`verilator`, `iverilog`).
    pub simulator: String,
    /// The simulator's version line.
    pub simulator_version: String,
    /// Vectors in the testbench.
    pub vectors: usize,
    /// Vectors whose outputs all matched.
    pub passed: usize,
    /// Vectors with at least one mismatch.
    pub failed: usize,
    /// The `MISMATCH ...` lines the testbench printed (at most ten).
    pub mismatches: Vec<String>,
    /// Seconds spent compiling the design and testbench.
    pub build_seconds: f64,
    /// Seconds spent running the simulation.
    pub run_seconds: f64,
}

/// A simulator that can build and run a generated [`Testbench`] against RTL files.
pub trait Simulator {
    /// The simulator's name, as [`simulator_by_name`] accepts it.
    fn name(&self) -> &'static str;

    /// Build `rtl` (the DUT's files) with `tb` in `work_dir/<name>/`, run it with the testbench's
    /// folder as working directory, and report its verdict.
    ///
    /// Errors when the tool is missing, the build fails (with the tool's first error lines), or
    /// the run gives no valid summary line; a run that counted failures is an `Ok` report.
    fn run(&self, rtl: &[PathBuf], tb: &Testbench, work_dir: &Path) -> Result<CosimReport, Error>;
}

/// The names [`simulator_by_name`] accepts.
pub const SIMULATOR_NAMES: [&str; 2] = ["verilator", "iverilog"];

/// The simulator called `name`: `verilator` or `iverilog` (the names a CLI flag takes).
pub fn simulator_by_name(name: &str) -> Result<Box<dyn Simulator>, Error> {
    match name {
        "verilator" => Ok(Box::new(Verilator)),
        "iverilog" => Ok(Box::new(Icarus)),
        _ => Err(Error::UnknownSimulator {
            name: name.to_owned(),
            allowed: SIMULATOR_NAMES.join(", "),
        }),
    }
}

/// The bound on one build or run: [`TIMEOUT_ENV`] seconds if set to a number, else
/// [`DEFAULT_TIMEOUT`].
pub(crate) fn timeout() -> Duration {
    std::env::var(TIMEOUT_ENV)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .map_or(DEFAULT_TIMEOUT, Duration::from_secs_f64)
}

/// Create `work_dir/<sub>` and return it as an absolute path.
pub(crate) fn make_work_dir(work_dir: &Path, sub: &str) -> Result<PathBuf, Error> {
    let dir = work_dir.join(sub);
    std::fs::create_dir_all(&dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    dir.canonicalize()
        .map_err(|e| Error::io(format!("resolving {}", dir.display()), e))
}

/// Lines of build output kept in an error.
const BUILD_ERROR_LINES: usize = 30;

/// What a run is checked against: its top module, its DUT (the summary line names it) and
/// how many vectors the summary must count.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checked<'a> {
    pub top: &'a str,
    pub dut: &'a str,
    pub vectors: usize,
}

impl<'a> From<&'a Testbench> for Checked<'a> {
    fn from(tb: &'a Testbench) -> Self {
        Checked {
            top: &tb.top,
            dut: tb.dut(),
            vectors: tb.vectors,
        }
    }
}

/// The steps every driver takes once its commands are set up: run `build` (logged to
/// `build_log`; a failure is [`hdl_util::Error::ToolFailed`] with the tool's first error lines, `what`
/// naming the step), then `sim` (logged to `run_log`), and read the testbench's verdict.
pub(crate) fn build_and_run(
    simulator: &str,
    version: String,
    tb: Checked<'_>,
    (build, build_log, what): (Command, &Path, &str),
    (sim, run_log): (Command, &Path),
) -> Result<CosimReport, Error> {
    let built = run_logged(build, build_log, timeout())?.require_success(
        simulator,
        format!("{what} of {} (log: {})", tb.top, build_log.display()),
        BUILD_ERROR_LINES,
    )?;
    let ran = run_logged(sim, run_log, timeout())?;
    let verdict = parse_run(simulator, tb, &ran, run_log)?;
    Ok(CosimReport {
        simulator: simulator.to_owned(),
        simulator_version: version,
        vectors: tb.vectors,
        passed: verdict.passed,
        failed: verdict.failed,
        mismatches: verdict.mismatches,
        build_seconds: built.seconds,
        run_seconds: ran.seconds,
    })
}

/// What a finished simulation run said.
pub(crate) struct Verdict {
    pub passed: usize,
    pub failed: usize,
    pub mismatches: Vec<String>,
}

/// Read the verdict of a simulation run from its output: exactly one `<dut>: P passed, F failed`
/// line with P + F equal to the testbench's vector count. A testbench ends with `$fatal` when a
/// vector failed, so a run that exited abnormally is a verdict only if its summary counts
/// failures; any other abnormal end (a load failure, a crash after the summary) is no verdict.
pub(crate) fn parse_run(
    simulator: &str,
    tb: Checked<'_>,
    run: &Logged,
    log: &Path,
) -> Result<Verdict, Error> {
    let no_summary = |reason: String| Error::NoSummary {
        simulator: simulator.to_owned(),
        top: tb.top.to_owned(),
        reason,
        log: log.to_owned(),
        tail: last_lines(&run.output, TAIL_LINES),
    };
    let Some(status) = run.status else {
        return Err(no_summary(
            "timed out; see TESTBENCHES_TIMEOUT_S".to_owned(),
        ));
    };
    let abnormal = || no_summary(format!("the run ended with {status}"));
    let summaries: Vec<(usize, usize)> = run
        .output
        .lines()
        .filter_map(|line| parse_summary(line.trim_end(), tb.dut))
        .collect();
    let (passed, failed) = match summaries.as_slice() {
        [one] => *one,
        [] if !status.success() => return Err(abnormal()),
        [] => return Err(no_summary("no summary line".to_owned())),
        _ => return Err(no_summary(format!("{} summary lines", summaries.len()))),
    };
    if passed + failed != tb.vectors {
        return Err(no_summary(format!(
            "the summary counts {} vectors but the testbench has {}",
            passed + failed,
            tb.vectors
        )));
    }
    if !status.success() && failed == 0 {
        return Err(abnormal());
    }
    let mismatches = run
        .output
        .lines()
        .filter(|l| l.starts_with("MISMATCH "))
        .take(MAX_REPORTED_MISMATCHES)
        .map(|l| l.trim_end().to_owned())
        .collect();
    Ok(Verdict {
        passed,
        failed,
        mismatches,
    })
}

/// `Some((P, F))` if `line` is exactly `<dut>: <P> passed, <F> failed`.
fn parse_summary(line: &str, dut: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix(dut)?.strip_prefix(": ")?;
    let (passed, rest) = rest.split_once(" passed, ")?;
    let failed = rest.strip_suffix(" failed")?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((number(passed)?, number(failed)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_line_is_parsed_strictly() {
        assert_eq!(
            parse_summary("mix: 12 passed, 0 failed", "mix"),
            Some((12, 0))
        );
        assert_eq!(
            parse_summary("mix: 3 passed, 9 failed", "mix"),
            Some((3, 9))
        );
        assert_eq!(parse_summary("mix2: 3 passed, 9 failed", "mix"), None);
        assert_eq!(parse_summary("mix: x passed, 9 failed", "mix"), None);
        assert_eq!(parse_summary("mix: 3 passed, 9 failed!", "mix"), None);
        assert_eq!(parse_summary("mix: -3 passed, 9 failed", "mix"), None);
    }

    #[test]
    fn unknown_simulator_names_the_allowed_ones() {
        assert_eq!(simulator_by_name("verilator").unwrap().name(), "verilator");
        assert_eq!(simulator_by_name("iverilog").unwrap().name(), "iverilog");
        let err = simulator_by_name("vcs").err().unwrap().to_string();
        assert!(
            err.contains("`vcs`") && err.contains("verilator, iverilog"),
            "{err}"
        );
    }

    #[test]
    fn report_serializes() {
        let report = CosimReport {
            simulator: "verilator".into(),
            simulator_version: "Verilator 5.006".into(),
            vectors: 2,
            passed: 1,
            failed: 1,
            mismatches: vec!["MISMATCH vector 1 in=00 expected=01 got=02".into()],
            build_seconds: 1.5,
            run_seconds: 0.25,
        };
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["failed"], 1);
        assert_eq!(
            json["mismatches"][0],
            "MISMATCH vector 1 in=00 expected=01 got=02"
        );
    }
}
