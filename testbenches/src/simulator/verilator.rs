//! The Verilator driver: `verilator --binary`, then the simulation binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::dpi::{DpiTestbench, PLAN_PLUSARG};
use crate::error::Error;
use crate::simulator::{build_and_run, make_work_dir, Checked, CosimReport, Simulator};
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
/// The C++ is compiled at Verilator's own default, `-Os`, unless the testbench has at most
/// [`QUICK_BUILD_VECTORS`] vectors: then at `-O0` (`OPT_FAST`, `OPT_SLOW` and `OPT_GLOBAL`,
/// given to make through `-MAKEFLAGS`), since the build, not the run, is what such a
/// testbench costs. Measured on the project's 2-core machine with 100 000 vectors:
/// `-CFLAGS -O1` changes nothing (verilated.mk puts `-Os` after `CFLAGS`); `OPT_FAST=-O0`
/// saves under 1 s of CPU on a cold build but doubles the run of a 32-lane XOR hasher (1.9 s
/// to 3.7 s); `-O1` builds no faster than `-Os`. For the 32-lane x 32-bank shared memory (16
/// MB of C++) `-O0` halves the cold build (81 s to 39 s of CPU) and its 417-vector run takes
/// 0.4 s instead of 0.04 s. With ccache the runtime objects, most of a small design's cold
/// build, come from the cache.
#[derive(Clone, Copy, Debug, Default)]
pub struct Verilator;

/// Testbenches of at most this many vectors are compiled at `-O0` (see [`Verilator`]): at
/// about a millisecond a vector for the largest designs, their run stays within seconds.
pub const QUICK_BUILD_VECTORS: usize = 5000;

/// The make variables that compile Verilator's C++ at `-O0`.
const QUICK_BUILD_MAKEFLAGS: &str = "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0";

impl Simulator for Verilator {
    fn name(&self) -> &'static str {
        "verilator"
    }

    fn run(&self, rtl: &[PathBuf], tb: &Testbench, work_dir: &Path) -> Result<CosimReport, Error> {
        let tb_file = tb.source.file_name().unwrap_or(tb.source.as_os_str());
        let (version, mdir, mut build) =
            verilator_build(rtl, tb.dir(), &tb.top, work_dir, "verilator")?;
        if tb.vectors <= QUICK_BUILD_VECTORS {
            build.args(["-MAKEFLAGS", QUICK_BUILD_MAKEFLAGS]);
        }
        build.arg(tb_file);
        let mut sim = std::process::Command::new(mdir.join(format!("V{}", tb.top)));
        sim.current_dir(tb.dir());
        build_and_run(
            self.name(),
            version,
            tb.into(),
            (build, &mdir.join("build.log"), "build"),
            (sim, &mdir.join("run.log")),
        )
    }
}

impl Verilator {
    /// Build the DPI-C testbench `tb` with the DUT's files `rtl` and the model's static C
    /// library `library` in `work_dir/verilator-dpi/`, run it with `+golden_plan=<plan>` and
    /// report its verdict, which must count `vectors` vectors.
    ///
    /// The library is linked with `-lpthread -ldl -lm` (what a Rust static library needs).
    pub fn run_dpi(
        &self,
        rtl: &[PathBuf],
        tb: &DpiTestbench,
        library: &Path,
        plan: &Path,
        vectors: usize,
        work_dir: &Path,
    ) -> Result<CosimReport, Error> {
        let dir = tb.source.parent().unwrap_or(Path::new("."));
        let tb_file = tb.source.file_name().unwrap_or(tb.source.as_os_str());
        let library = std::path::absolute(library)
            .map_err(|e| Error::io(format!("resolving {}", library.display()), e))?;
        let plan = std::path::absolute(plan)
            .map_err(|e| Error::io(format!("resolving {}", plan.display()), e))?;
        let (version, mdir, mut build) =
            verilator_build(rtl, dir, &tb.top, work_dir, "verilator-dpi")?;
        build
            .arg(tb_file)
            .arg(&library)
            .args(["-LDFLAGS", "-lpthread -ldl -lm"]);
        let mut sim = std::process::Command::new(mdir.join(format!("V{}", tb.top)));
        let mut plusarg = std::ffi::OsString::from(format!("+{PLAN_PLUSARG}="));
        plusarg.push(&plan);
        sim.current_dir(dir).arg(plusarg);
        build_and_run(
            self.name(),
            version,
            Checked {
                top: &tb.top,
                dut: &tb.dut,
                vectors,
            },
            (build, &mdir.join("build.log"), "build"),
            (sim, &mdir.join("run.log")),
        )
    }
}

/// Verilator's version, the build folder `work_dir/<sub>` and the build command
/// for `top` up to (not including) the testbench file: `--binary -Wall --timing`, the RTL
/// files made absolute, run in `dir` (see [`Verilator`] on why), ccache when available.
fn verilator_build(
    rtl: &[PathBuf],
    dir: &Path,
    top: &str,
    work_dir: &Path,
    sub: &str,
) -> Result<(String, PathBuf, Command), Error> {
    let tool = ExternalTool::find("verilator", "VERILATOR", "verilator")?;
    let version = tool.version()?;
    let mdir = make_work_dir(work_dir, sub)?;
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
            std::path::absolute(p).map_err(|e| Error::io(format!("resolving {}", p.display()), e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut build = tool.command();
    build
        .current_dir(dir)
        .args(["--binary", "-Wall", "--timing", "--timescale", "1ns/1ps"])
        .args(["--build-jobs", "2", "--top-module", top])
        .arg("-Mdir")
        .arg(&mdir)
        .args(&rtl);
    if std::env::var_os("OBJCACHE").is_none() && find_on_path(Path::new("ccache")).is_some() {
        build.env("OBJCACHE", "ccache");
    }
    Ok((version, mdir, build))
}
