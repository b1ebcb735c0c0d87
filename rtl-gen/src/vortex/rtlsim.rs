//! Vortex's RTL simulator (`librtlsim.so` and the runtime driver `libvortex-rtlsim.so`), built
//! once per local memory and configuration under `<work>/rtlsim/<config>/<label>-<key>/` and
//! kept: its key is a digest of the tree, the `CONFIGS`, the generated memory's files and the
//! defines, so a build is reused exactly when nothing it is made of changed. A build takes
//! about 3.5 CPU-minutes at Vortex's default configuration (ccache, when installed, makes a
//! rebuild of unchanged modules faster).

use super::config::VxConfig;
use super::tree::Tree;
use super::{copy_tree, fresh_folder, run_logged, Digest, Progress, Setup};
use crate::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The file in a finished simulator folder (its presence means the build completed).
const DONE_FILE: &str = ".rtl-gen-built";

/// A generated local memory to build in place of Vortex's `VX_local_mem`.
#[derive(Debug, Clone)]
pub struct LmemFolder {
    /// The block folder (`VX_local_mem.sv`, the core files, `<name>.f`, `<name>.json`).
    pub dir: PathBuf,
    /// Its filelist, relative to `dir`.
    pub filelist: String,
}

/// A built simulator.
#[derive(Debug, Clone)]
pub struct Rtlsim {
    /// Its folder (`librtlsim.so`, `libvortex-rtlsim.so`, `build.log`).
    pub dir: PathBuf,
}

/// What to build: the tree, the configuration, the local memory (`None`: Vortex's own) and
/// further Verilator defines (`RTLGEN_LMEM_STATS`, `RTLGEN_LMEM_TRACE`).
pub struct Build<'a> {
    /// The tree whose sources are built.
    pub tree: &'a Tree,
    /// The GPU's configuration.
    pub config: &'a VxConfig,
    /// The generated local memory, or Vortex's own.
    pub lmem: Option<&'a LmemFolder>,
    /// Defines for Verilator alone (`-DNAME`).
    pub defines: Vec<String>,
    /// A name for the folder and the progress (the map).
    pub label: String,
}

impl Build<'_> {
    fn key(&self) -> Result<String, Error> {
        let mut digest = Digest::default();
        digest.add("tree", self.tree.key.as_bytes());
        digest.add("configs", self.config.defines().join(" ").as_bytes());
        digest.add("defines", self.defines.join(" ").as_bytes());
        if let Some(lmem) = self.lmem {
            digest.add("filelist", lmem.filelist.as_bytes());
            digest.add_tree(&lmem.dir)?;
        }
        Ok(digest.to_string())
    }

    /// Builds the simulator, or finds it built.
    pub fn run(&self, setup: &Setup, progress: &dyn Progress) -> Result<Rtlsim, Error> {
        let key = self.key()?;
        let dir = setup
            .work
            .join("rtlsim")
            .join(self.config.label())
            .join(format!("{}-{}", self.label, &key[..12]));
        if dir.join(DONE_FILE).is_file() {
            return Ok(Rtlsim { dir });
        }
        progress.step(&format!(
            "building rtlsim for {} at {} (minutes) in {}",
            self.label,
            self.config,
            dir.display()
        ));
        fresh_folder(&dir)?;
        let mut vl_flags = Vec::new();
        if let Some(lmem) = self.lmem {
            let copy = dir.join("lmem");
            copy_tree(&lmem.dir, &copy)?;
            vl_flags.push(format!("-I{}", copy.display()));
            // The generated files carry a timescale, Vortex's none (TIMESCALEMOD otherwise).
            vl_flags.push("--timescale 1ns/1ps".to_string());
            vl_flags.push(format!("-F {}", copy.join(&lmem.filelist).display()));
        }
        vl_flags.extend(self.defines.iter().cloned());
        let mut command = Command::new("make");
        command
            .arg("-C")
            .arg(self.tree.build().join("runtime/rtlsim"))
            .arg(format!("DESTDIR={}", dir.display()))
            .arg("PERF=1")
            .arg(format!("THREADS={}", setup.jobs.max(1)))
            .arg(format!("CONFIGS={}", self.config.defines().join(" ")))
            .arg(format!("RTLGEN_VL_FLAGS={}", vl_flags.join(" ")));
        if which("ccache") {
            command.env("OBJCACHE", "ccache");
        }
        run_logged(
            &mut command,
            &format!("building rtlsim for {}", self.label),
            &dir.join("build.log"),
        )?;
        // Verilator's objects (about 40 MB) serve an incremental rebuild, which a folder keyed
        // by its content never needs.
        let objects = dir.join("librtlsim.so.obj_dir");
        crate::output::cleanup::remove(&objects).map_err(Error::io(&objects))?;
        let done = dir.join(DONE_FILE);
        fs::write(&done, format!("{key}\n")).map_err(Error::io(&done))?;
        Ok(Rtlsim { dir })
    }
}

/// Whether `tool` is on the `PATH`.
fn which(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|p| is_executable(&p.join(tool))))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
