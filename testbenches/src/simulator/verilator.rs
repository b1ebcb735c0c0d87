//! The Verilator driver: `verilator --binary`, then the simulation binary.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::simulator::{build_and_run, make_work_dir, CosimReport, Simulator};
use crate::testbench::Testbench;
use hdl_util::tool::find_on_path;
use hdl_util::ExternalTool;

/// Verilator (found through `VERILATOR` or `PATH`), building a C++ simulation binary.
///
/// The build runs `verilator --binary -Wall --timing`, so the DUT and the testbench must be
/// lint-clean, with two make jobs. When `ccache` is on `PATH` and the environment does not set
/// `OBJCACHE`, the build sets `OBJCACHE=ccache`: Verilator's runtime files and an unchanged
/// design then compile from the cache (set `OBJCACHE` to an empty value to turn this off).
/// Measured on the idle 2-core machine for a small DUT and 100 000 vectors: a cold build takes
/// 3.4 to 4 s, a build served by ccache about 0.2 s; the run itself takes well under 0.1 s
/// (docs/BENCHMARKS.md).
///
/// The C++ is compiled at Verilator's own default, `-Os`. Measured on the project's 2-core
/// machine with 100 000 vectors: `-CFLAGS -O1` changes nothing (verilated.mk puts `-Os` after
/// `CFLAGS`); `OPT_FAST=-O0` saves under 1 s of CPU on a cold build but doubles the run of a
/// 32-lane XOR hasher (1.9 s to 3.7 s); `-O1` builds no faster than `-Os`. With ccache the
/// runtime objects, most of a cold build, come from the cache, so `-Os` costs nothing there.
#[derive(Clone, Copy, Debug, Default)]
pub struct Verilator;

impl Simulator for Verilator {
    fn name(&self) -> &'static str {
        "verilator"
    }

    fn run(&self, rtl: &[PathBuf], tb: &Testbench, work_dir: &Path) -> Result<CosimReport, Error> {
        let tool = ExternalTool::find("verilator", "VERILATOR", "verilator")?;
        let version = tool.version()?;
        let mdir = make_work_dir(work_dir, "verilator")?;

        // --binary implies --timing in Verilator 5.006 too; it is passed anyway for clarity and
        // for versions where it might not. --timescale gives a file without `timescale (not
        // rtl-gen's, which have the testbench's) that unit instead of failing with TIMESCALEMOD.
        // Verilator writes the paths of its source files into the C++ it generates, so the
        // build runs in the testbench's folder and names the testbench by its bare file name:
        // the same testbench and DUT then give the same C++, which ccache serves whatever folder
        // they were written to. RTL paths are made absolute to survive the change of folder.
        let rtl = rtl
            .iter()
            .map(|p| {
                std::path::absolute(p)
                    .map_err(|e| Error::io(format!("resolving {}", p.display()), e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let tb_file = tb.source.file_name().unwrap_or(tb.source.as_os_str());
        let mut build = tool.command();
        build
            .current_dir(tb.dir())
            .args(["--binary", "-Wall", "--timing", "--timescale", "1ns/1ps"])
            .args(["--build-jobs", "2", "--top-module", &tb.top])
            .arg("-Mdir")
            .arg(&mdir)
            .args(&rtl)
            .arg(tb_file);
        if std::env::var_os("OBJCACHE").is_none() && find_on_path(Path::new("ccache")).is_some() {
            build.env("OBJCACHE", "ccache");
        }
        let mut sim = std::process::Command::new(mdir.join(format!("V{}", tb.top)));
        sim.current_dir(tb.dir());
        build_and_run(
            self.name(),
            version,
            tb,
            (build, &mdir.join("build.log"), "build"),
            (sim, &mdir.join("run.log")),
        )
    }
}
