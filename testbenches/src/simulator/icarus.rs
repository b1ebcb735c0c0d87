//! The Icarus Verilog driver: `iverilog -g2005`, then `vvp`.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::simulator::{build_and_run, make_work_dir, CosimReport, Simulator};
use crate::testbench::Testbench;
use hdl_util::ExternalTool;

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
        // -n: a $stop ends the run instead of waiting for interactive input.
        let mut sim = vvp.command();
        sim.arg("-n").arg(&image).current_dir(tb.dir());
        build_and_run(
            self.name(),
            version,
            tb.into(),
            (build, &dir.join("build.log"), "compile"),
            (sim, &dir.join("run.log")),
        )
    }
}
