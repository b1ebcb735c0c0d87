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

/// The golden model's static library: [`LIBRARY_ENV`] if set, else the library built together
/// with this program, found by its build tag ([`golden_dpi::BUILD_TAG`], which this program
/// holds): `libgolden_dpi.a` next to the running executable or in its parent folder (where
/// `cargo build -p golden-dpi` puts it), or `deps/libgolden_dpi-<hash>.a` there (where Cargo
/// puts it when it builds rtl-gen or a test binary). The tag, not the newest file date, decides,
/// so a library left by another build (other features, another profile) is never taken; among
/// libraries with the tag (copies of one build) the first by path is.
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
    let mut candidates: Vec<PathBuf> = [dir.to_path_buf(), dir.join("..")]
        .iter()
        .flat_map(|f| [f.clone(), f.join("deps")])
        .filter_map(|f| std::fs::read_dir(f).ok())
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name == LIBRARY_NAME || (name.starts_with("libgolden_dpi-") && name.ends_with(".a"))
        })
        .map(|e| e.path())
        .collect();
    candidates.sort();
    candidates
        .into_iter()
        .find(|path| built_with_this_program(path))
        .ok_or_else(|| {
            Error::GoldenLibrary(format!(
                "the golden model's C library {LIBRARY_NAME}, built with this rtl-gen, is not next \
                 to {} (build them together with `cargo build --release -p rtl-gen`, or set \
                 {LIBRARY_ENV})",
                exe.display()
            ))
        })
}

/// Whether the static library at `path` holds this program's [`golden_dpi::BUILD_TAG`].
fn built_with_this_program(path: &Path) -> bool {
    std::fs::read(path)
        .is_ok_and(|bytes| memchr::memmem::find(&bytes, golden_dpi::BUILD_TAG.as_bytes()).is_some())
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

/// Runs the block in `dir` under Verilator with the DPI-C testbench (`instances` DUT instances
/// side by side) checking `stimulus`; builds in `<dir>/build/`.
pub fn run(
    dir: &Path,
    stimulus: HashPlanStimulus,
    instances: usize,
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
    let tb = write_dpi_testbench(&tb_dir, &harness(&manifest), MODEL, instances)?;
    let plan_path = tb_dir.join("plan.json");
    let text = serde_json::to_string_pretty(&plan).unwrap_or_else(|e| unreachable!("{e}"));
    std::fs::write(&plan_path, text).map_err(Error::io(&plan_path))?;
    let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
    let report = Verilator.run_dpi(&rtl, &tb, &library, &plan_path, vectors, &work)?;
    Ok((manifest, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A library is taken by its build tag, whatever its date: one without the tag (another
    /// build's, or a stale copy) is not, one holding it anywhere in its bytes is.
    #[test]
    fn a_library_is_recognised_by_its_build_tag_not_its_date() {
        let dir = tempfile::tempdir().unwrap();
        let ours = dir.path().join("libgolden_dpi-1.a");
        let other = dir.path().join("libgolden_dpi-2.a");
        let mut bytes = b"!<arch>\n...".to_vec();
        bytes.extend_from_slice(golden_dpi::BUILD_TAG.as_bytes());
        bytes.extend_from_slice(b"...");
        std::fs::write(&ours, &bytes).unwrap();
        std::fs::write(&other, "!<arch>\ngolden-dpi build /elsewhere/out").unwrap();
        assert!(built_with_this_program(&ours));
        assert!(!built_with_this_program(&other));
        assert!(!built_with_this_program(&dir.path().join("missing.a")));
    }
}
