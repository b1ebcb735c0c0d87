//! The Icarus Verilog driver: `iverilog -g2005`, then `vvp`.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::simulator::{make_work_dir, parse_run, timeout, CosimReport, Simulator};
use crate::testbench::Testbench;
use crate::tools::{first_error_lines, run_logged, ExternalTool};

/// Lines of compiler output kept in an error.
const ERROR_LINES: usize = 30;

/// Icarus Verilog (`iverilog` and `vvp`, found through `IVERILOG` / `VVP` or `PATH`): a 4-state
/// event-driven simulator, so X and Z on outputs are seen and fail the `!==` checks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Icarus;

impl Simulator for Icarus {
    fn name(&self) -> &'static str {
        "iverilog"
    }

    fn run(&self, rtl: &[PathBuf], tb: &Testbench, work_dir: &Path) -> Result<CosimReport, Error> {
        let iverilog = ExternalTool::find("iverilog", "IVERILOG", "iverilog")?;
        let vvp = ExternalTool::find("vvp", "VVP", "iverilog")?;
        let version = iverilog.version()?;
        let dir = make_work_dir(work_dir, "icarus")?;
        let image = dir.join("sim.vvp");

        let mut build = iverilog.command();
        build
            .args(["-g2005", "-s", &tb.top, "-o"])
            .arg(&image)
            .args(rtl)
            .arg(&tb.source);
        let build_log = dir.join("build.log");
        let built = run_logged(build, &build_log, timeout())?;
        if !built.status.is_some_and(|s| s.success()) {
            return Err(Error::ToolFailed {
                tool: "iverilog".to_owned(),
                what: format!("compile of {} (log: {})", tb.top, build_log.display()),
                status: built
                    .status
                    .map_or_else(|| "timed out".to_owned(), |s| s.to_string()),
                output: first_error_lines(&built.output, ERROR_LINES),
            });
        }

        // -n: a $stop ends the run instead of waiting for interactive input.
        let mut sim = vvp.command();
        sim.arg("-n").arg(&image).current_dir(tb.dir());
        let run_log = dir.join("run.log");
        let ran = run_logged(sim, &run_log, timeout())?;
        let verdict = parse_run(self.name(), tb, &ran, &run_log)?;
        Ok(CosimReport {
            simulator: self.name().to_owned(),
            simulator_version: version,
            vectors: tb.vectors,
            passed: verdict.passed,
            failed: verdict.failed,
            mismatches: verdict.mismatches,
            build_seconds: built.seconds,
            run_seconds: ran.seconds,
        })
    }
}
