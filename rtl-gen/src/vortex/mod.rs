//! Vortex, the open RISC-V GPGPU, running its own kernels and the project's with a generated
//! shared memory as its local memory (`rtl-gen vortex`).
//!
//! The pinned Vortex copy (`../shared/third_party/vortex`, Apache-2.0) is never edited: a
//! [`tree::Tree`] copies it into a build folder, applies the project's patches
//! (`vortex/patches/`), puts the project's fixed-latency memory model (`vortex/dram_sim.cpp`) in
//! place of ramulator, wraps Debian's RISC-V GCC and picolibc under the names Vortex's
//! makefiles expect, configures it and builds what every run shares (SoftFloat, the kernel
//! library, the runtime). [`kernels`] builds Vortex's regression kernels, the project's
//! (`vortex/kernels/`) and a user's own; [`rtlsim`] builds Vortex's RTL simulator once per
//! local memory and configuration, cached by content; [`run`] runs a kernel on it and reads
//! its result and counters.
//!
//! - [`assets`]: the patches, the memory model and the project's kernels, built into rtl-gen;
//! - [`config`]: the GPU's configuration (threads, banks, Vortex `CONFIGS`);
//! - [`tree`]: the patched, configured Vortex copy;
//! - [`kernels`]: the kernel catalogue and kernel builds;
//! - [`maps`]: the local memories `--map` takes (Vortex's own, or a generated one);
//! - [`rtlsim`]: the RTL simulator builds;
//! - [`run`]: one kernel run and its record;
//! - [`flow`]: `rtl-gen vortex run`: every map x every kernel, one table;
//! - [`table`]: `rtl-gen vortex table`: docs/VORTEX.md's table and the checks.

pub mod assets;
pub mod config;
pub mod flow;
pub mod kernels;
pub mod maps;
pub mod rtlsim;
pub mod run;
pub mod table;
pub mod tree;

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use crate::error::VortexError;
pub use config::VxConfig;
pub use flow::{Plan, Record};
pub use kernels::KernelSpec;
pub use maps::MapChoice;

/// Where a run's progress goes: one line per step (building, running), or nowhere.
pub trait Progress: Sync {
    /// Reports a step under way.
    fn step(&self, message: &str);
}

/// Progress that is not shown.
pub struct Silent;

impl Progress for Silent {
    fn step(&self, _: &str) {}
}

/// Where the pinned Vortex copy and the build folder are, and how many jobs a build may use.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The pinned Vortex copy (read only).
    pub vortex: PathBuf,
    /// The build folder (trees, simulators, runs).
    pub work: PathBuf,
    /// Jobs of a C++ or Verilator build.
    pub jobs: usize,
}

impl Setup {
    /// A setup with both folders made absolute (the tools run in other folders).
    pub fn new(vortex: &Path, work: &Path, jobs: usize) -> Result<Self, crate::Error> {
        let absolute = |p: &Path| std::path::absolute(p).map_err(crate::Error::io(p));
        Ok(Self {
            vortex: absolute(vortex)?,
            work: absolute(work)?,
            jobs: jobs.max(1),
        })
    }
}

/// The default place of the pinned Vortex copy, relative to the repository root.
pub const DEFAULT_VORTEX: &str = "../shared/third_party/vortex";

/// Files that make a folder the pinned Vortex copy.
const VORTEX_FILES: [&str; 5] = [
    "LICENSE",
    "configure",
    "hw/rtl/mem/VX_local_mem.sv",
    "sim/rtlsim/processor.cpp",
    "tests/regression/sgemm2/kernel.cpp",
];

/// Checks that `dir` holds the pinned Vortex copy; the error names `--vortex` and what is
/// missing.
pub fn check_vortex(dir: &Path) -> Result<(), crate::Error> {
    let missing: Vec<&str> = VORTEX_FILES
        .iter()
        .copied()
        .filter(|f| !dir.join(f).is_file())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let what = if dir.is_dir() {
        format!(
            "is not a copy of Vortex (it lacks {}); give the pinned copy \
             (../shared/third_party/vortex from the repository root)",
            missing.join(", ")
        )
    } else {
        "does not exist; give the pinned Vortex copy (../shared/third_party/vortex from the \
         repository root)"
            .to_string()
    };
    Err(crate::Error::BadFlag {
        flag: "--vortex",
        value: dir.display().to_string(),
        message: what,
    })
}

/// Runs `command` with its standard output and error appended to `log`; a failure is a
/// [`VortexError::Step`] named `step`, with the log's last lines.
pub(crate) fn run_logged(
    command: &mut Command,
    step: &str,
    log: &Path,
) -> Result<(), crate::Error> {
    use std::fs::OpenOptions;
    use std::io::Write as _;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(crate::Error::io(log))?;
    let _ = writeln!(file, "$ {}", display_command(command));
    let err = file.try_clone().map_err(crate::Error::io(log))?;
    let status = command.stdout(file).stderr(err).status();
    let status = match status {
        Ok(s) if s.success() => return Ok(()),
        Ok(s) => s.code().map_or("signal".to_string(), |c| c.to_string()),
        Err(e) => format!("not started: {e}"),
    };
    Err(VortexError::Step {
        step: step.to_string(),
        status,
        log: log.to_path_buf(),
        tail: last_lines(log, 3),
    }
    .into())
}

/// The last `n` non-empty lines of a file (empty if it cannot be read).
pub(crate) fn last_lines(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A command as a shell line, for logs.
fn display_command(command: &Command) -> String {
    let mut words = vec![command.get_program().to_string_lossy().into_owned()];
    words.extend(command.get_args().map(|a| a.to_string_lossy().into_owned()));
    words.join(" ")
}

/// A 64-bit FNV-1a digest, written as 16 hex digits: the content key of cached builds.
#[derive(Default)]
pub struct Digest(fnv::FnvHasher);

impl Digest {
    /// Adds a labelled piece of content (the label keeps `("ab", "c")` apart from `("a", "bc")`).
    pub fn add(&mut self, label: &str, content: &[u8]) {
        use std::hash::Hasher as _;
        self.0.write(label.as_bytes());
        self.0.write(&(content.len() as u64).to_le_bytes());
        self.0.write(content);
    }

    /// Adds every file under `dir` (relative path and content, in path order).
    pub fn add_tree(&mut self, dir: &Path) -> Result<(), crate::Error> {
        let mut files = Vec::new();
        list_files(dir, dir, &mut files)?;
        files.sort();
        for rel in files {
            let path = dir.join(&rel);
            let content = std::fs::read(&path).map_err(crate::Error::io(&path))?;
            self.add(&rel.to_string_lossy(), &content);
        }
        Ok(())
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use std::hash::Hasher as _;
        write!(f, "{:016x}", self.0.finish())
    }
}

/// The files under `dir`, relative to `root`.
fn list_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), crate::Error> {
    for entry in std::fs::read_dir(dir).map_err(crate::Error::io(dir))? {
        let entry = entry.map_err(crate::Error::io(dir))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(crate::Error::io(&path))?;
        if kind.is_dir() {
            list_files(root, &path, out)?;
        } else if kind.is_file() {
            let rel = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            out.push(rel);
        }
    }
    Ok(())
}

/// Makes `dir` an empty folder of rtl-gen's (with its marker), removing what rtl-gen wrote there
/// before; anything else in the way is refused without `--force`.
pub(crate) fn fresh_folder(dir: &Path) -> Result<(), crate::Error> {
    use crate::output::ownership::{check_replaceable, folder_state, marker_text, Found};
    let found = folder_state(dir);
    check_replaceable(dir, &found)?;
    if found != Found::Absent {
        crate::output::cleanup::remove(dir).map_err(crate::Error::io(dir))?;
    }
    std::fs::create_dir_all(dir).map_err(crate::Error::io(dir))?;
    let marker = dir.join(crate::output::MARKER_FILE);
    std::fs::write(&marker, marker_text()).map_err(crate::Error::io(&marker))
}

/// Copies the folder `from` to `to` (created), files and folders; links are followed.
pub(crate) fn copy_tree(from: &Path, to: &Path) -> Result<(), crate::Error> {
    std::fs::create_dir_all(to).map_err(crate::Error::io(to))?;
    for entry in std::fs::read_dir(from).map_err(crate::Error::io(from))? {
        let entry = entry.map_err(crate::Error::io(from))?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(crate::Error::io(&src))?;
        }
    }
    Ok(())
}
