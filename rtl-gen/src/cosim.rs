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
    for (file, what) in [
        (&testbench.stimulus, "stimulus"),
        (&testbench.expected, "expected"),
    ] {
        check_vector_file(file, what, tb.vectors)?;
    }
    let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
    let report = sim.run(&rtl, &testbench, &dir.join("build"))?;
    Ok((manifest, report))
}

/// Refuses, before the build, a testbench's vector file that is missing, unreadable or holds
/// fewer than the manifest's `vectors` lines of data (a truncated file): the simulation would
/// otherwise read past its end and stop without naming the file. Comment lines (`//`) and
/// address lines (`@`) of `$readmemh` are not data.
fn check_vector_file(path: &Path, what: &str, vectors: usize) -> Result<(), Error> {
    let refuse = |message: String| Error::NotABlock {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read(path).map_err(|e| {
        refuse(format!(
            "the testbench's {what} vectors cannot be read ({e}); regenerate the block"
        ))
    })?;
    let lines = text
        .split(|&b| b == b'\n')
        .map(|line| line.trim_ascii())
        .filter(|line| !line.is_empty() && !line.starts_with(b"//") && !line.starts_with(b"@"))
        .count();
    if lines < vectors {
        return Err(refuse(format!(
            "the testbench's {what} vectors hold {lines} lines, fewer than the {vectors} its \
             manifest names (a truncated file); regenerate the block"
        )));
    }
    Ok(())
}
