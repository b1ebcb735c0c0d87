//! Co-simulation of a hasher through DPI-C: the golden model linked into the Verilator
//! simulation (the `golden-dpi` crate's static library), every vector drawn and checked while
//! the simulation runs, no vector files.
//!
//! The file-based testbench stays the portable path (Icarus, any simulator); this one is the
//! fast path for Verilator. With the default stimulus it checks exactly the vectors the
//! file-based testbench of a block generated with the default plan checks, in the same order,
//! so a broken circuit fails the same vectors under both.

use crate::manifest::Manifest;
use crate::Error;
use golden_dpi::{HashPlan, HashPlanStimulus};
use models::HashConfigObject;
use std::path::{Path, PathBuf};
use testbenches::dpi::write_dpi_testbench;
use testbenches::{CosimReport, Harness, PortSpec, Verilator};

/// The environment variable naming the golden model's static library, when it is not next to
/// the running executable.
pub const LIBRARY_ENV: &str = "RTLGEN_GOLDEN_LIB";

/// The static library's file name.
pub const LIBRARY_NAME: &str = "libgolden_dpi.a";

/// The C function prefix of the hasher's model.
pub const MODEL: &str = "golden_hash";

/// The golden model's static library: [`LIBRARY_ENV`] if set, else `libgolden_dpi.a` next to
/// the running executable or in its parent folder (where `cargo build -p golden-dpi` puts it),
/// else the newest `deps/libgolden_dpi-<hash>.a` there (where Cargo puts it when it builds
/// rtl-gen, which depends on golden-dpi, or a test binary, in the same target folder).
pub fn golden_library() -> Result<PathBuf, Error> {
    if let Some(path) = std::env::var_os(LIBRARY_ENV) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(Error::GoldenLibrary(format!(
                "{LIBRARY_ENV}={}: no such file",
                path.display()
            )))
        };
    }
    let exe = std::env::current_exe().map_err(Error::io("the running executable"))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    let folders = [dir.to_path_buf(), dir.join("..")];
    let exact = folders
        .iter()
        .map(|f| f.join(LIBRARY_NAME))
        .find(|p| p.is_file());
    let hashed = || {
        folders
            .iter()
            .flat_map(|f| [f.clone(), f.join("deps")])
            .filter_map(|f| std::fs::read_dir(f).ok())
            .flatten()
            .filter_map(Result::ok)
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.starts_with("libgolden_dpi-") && name.ends_with(".a")
            })
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .max()
            .map(|(_, path)| path)
    };
    exact.or_else(hashed).ok_or_else(|| {
        Error::GoldenLibrary(format!(
            "the golden model's C library {LIBRARY_NAME} is not next to {} (build it with \
             `cargo build --release -p golden-dpi`, or set {LIBRARY_ENV})",
            exe.display()
        ))
    })
}

/// The testbench's view of a block from its manifest: every data port, clock and reset left
/// to the testbench.
pub fn harness(manifest: &Manifest) -> Harness {
    let own = |name: &str| {
        manifest.timing.clock.as_deref() == Some(name)
            || manifest
                .timing
                .reset
                .as_ref()
                .is_some_and(|r| r.port == name)
    };
    let ports = |direction: &str| -> Vec<PortSpec> {
        manifest
            .ports
            .iter()
            .filter(|p| p.direction == direction && !own(&p.name))
            .map(|p| PortSpec::new(p.name.clone(), p.width as usize))
            .collect()
    };
    Harness {
        dut: manifest.top.clone(),
        inputs: ports("input"),
        outputs: ports("output"),
        timing: manifest.timing.timing,
    }
}

/// The model's plan for the hasher block described by `manifest`.
pub fn plan(manifest: &Manifest, stimulus: HashPlanStimulus) -> Result<HashPlan, Error> {
    let not_hash = || Error::BadFlag {
        flag: "--fast",
        value: manifest.top.clone(),
        message: format!(
            "a {} block; the DPI-C golden model covers hash blocks (use the file-based testbench)",
            manifest.family
        ),
    };
    if manifest.family != "hash" {
        return Err(not_hash());
    }
    let configuration: HashConfigObject = serde_json::from_value(manifest.configuration.clone())
        .map_err(|e| Error::NotABlock {
            path: manifest.top.clone().into(),
            message: format!("its manifest's configuration is not a hasher's: {e}"),
        })?;
    let cfg_fields = manifest
        .fields
        .get("cfg_i")
        .map(|fields| fields.iter().map(|f| [f.lsb, f.width]).collect())
        .unwrap_or_default();
    Ok(HashPlan {
        configuration,
        configurable: manifest.variant == "configurable",
        cfg_fields,
        stimulus,
    })
}

/// Runs the block in `dir` under Verilator with the DPI-C testbench (`lanes` DUT instances
/// side by side) checking `stimulus`; builds in `<dir>/build/`.
pub fn run(
    dir: &Path,
    stimulus: HashPlanStimulus,
    lanes: usize,
) -> Result<(Manifest, CosimReport), Error> {
    let (manifest, _) = Manifest::load(dir)?;
    let plan = plan(&manifest, stimulus)?;
    let vectors = plan
        .stimulus()
        .map_err(|message| Error::NotABlock {
            path: dir.into(),
            message,
        })?
        .len();
    let vectors = usize::try_from(vectors).map_err(|_| Error::BadFlag {
        flag: "--vectors",
        value: vectors.to_string(),
        message: "more vectors than this machine can count".into(),
    })?;
    let library = golden_library()?;
    let dir = std::path::absolute(dir).map_err(Error::io(dir))?;
    let work = dir.join("build");
    let tb_dir = work.join("dpi");
    let tb = write_dpi_testbench(&tb_dir, &harness(&manifest), MODEL, lanes)?;
    let plan_path = tb_dir.join("plan.json");
    let text = serde_json::to_string_pretty(&plan).unwrap_or_else(|e| unreachable!("{e}"));
    std::fs::write(&plan_path, text).map_err(Error::io(&plan_path))?;
    let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
    let report = Verilator.run_dpi(&rtl, &tb, &library, &plan_path, vectors, &work)?;
    Ok((manifest, report))
}
