//! Co-simulation of a generated block: reads its manifest, builds its self-checking testbench
//! under a simulator and reports how many vectors passed.

use crate::manifest::Manifest;
use crate::Error;
use std::path::Path;
use testbenches::{simulator_by_name, CosimReport, Testbench};

/// Runs the testbench of the block in `dir` under `simulator` (`verilator` or `iverilog`),
/// building in `<dir>/build/`.
pub fn run(dir: &Path, simulator: &str) -> Result<(Manifest, CosimReport), Error> {
    let (manifest, _) = Manifest::load(dir)?;
    let sim = simulator_by_name(simulator)?;
    let dir = std::path::absolute(dir).map_err(Error::io(dir))?;
    let tb = &manifest.testbench;
    let testbench = Testbench {
        top: tb.top.clone(),
        source: dir.join(&tb.source),
        stimulus: dir.join(&tb.stimulus),
        expected: dir.join(&tb.expected),
        vectors: tb.vectors,
    };
    let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
    let report = sim.run(&rtl, &testbench, &dir.join("build"))?;
    Ok((manifest, report))
}
