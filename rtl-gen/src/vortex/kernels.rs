//! The kernels `rtl-gen vortex` runs: Vortex's regression kernels that build with GCC, the
//! project's (`vortex/kernels/`, warp-uniform: GCC inserts no split/join for divergent
//! branches), and a user's own in Vortex's regression-test layout (`Makefile`, `main.cpp`,
//! `kernel.cpp`, `common.h`). Each is built in the tree's `tests/regression/<name>/` by its
//! Makefile (kernel `kernel.vxbin` and host program `<name>`); its host program checks the
//! result against a host-side reference and prints `PASSED!`.

use super::assets::{Asset, KERNEL_SHARED, PROJECT_KERNELS};
use super::tree::Tree;
use super::{run_logged, Progress};
use crate::Error;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where a kernel's sources come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Vortex's `tests/regression/<name>/`.
    Vortex,
    /// The project's `vortex/kernels/<name>/`, built into rtl-gen.
    Project(&'static [Asset]),
    /// A user's folder in Vortex's regression-test layout.
    User(PathBuf),
}

/// A kernel of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct Known {
    /// Its name (the folder under `tests/regression/`).
    pub name: &'static str,
    /// What it does and what its local memory sees.
    pub about: &'static str,
    /// Whether its sources are Vortex's (else the project's).
    pub vortex: bool,
}

/// Vortex's regression kernels that build with GCC and compute right: the local-memory ones
/// (`sgemm2`; `conv3` with `-l`) and two controls without local memory (`sgemm`, `vecadd`).
pub const VORTEX_KERNELS: [Known; 4] = [
    Known {
        name: "sgemm2",
        about: "tiled matrix product through local memory (Vortex); -n size, -t tile",
        vortex: true,
    },
    Known {
        name: "conv3",
        about: "3x3 convolution (Vortex); -n size, -l: weights in local memory",
        vortex: true,
    },
    Known {
        name: "sgemm",
        about: "matrix product without local memory (Vortex, a control); -n size",
        vortex: true,
    },
    Known {
        name: "vecadd",
        about: "vector sum without local memory (Vortex, a control); -n size",
        vortex: true,
    },
];

/// Every kernel `--kernels` takes: Vortex's, then the project's.
pub fn catalogue() -> Vec<Known> {
    VORTEX_KERNELS
        .iter()
        .copied()
        .chain(PROJECT_KERNELS.iter().map(|k| Known {
            name: k.name,
            about: k.about,
            vortex: false,
        }))
        .collect()
}

/// A kernel to run, with its arguments: `sgemm2:-n32`, `conv3:-n64:-l`, `transpose`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelSpec {
    /// Its name (its folder under `tests/regression/` and its host program).
    pub name: String,
    /// Where its sources come from.
    pub source: Source,
    /// The host program's arguments.
    pub args: Vec<String>,
}

impl KernelSpec {
    /// Parses `NAME[:ARG[:ARG...]]` against the catalogue; the error names `--kernels`, the
    /// value and the kernels allowed.
    pub fn parse(spec: &str) -> Result<Self, Error> {
        let mut parts = spec.split(':');
        let name = parts.next().unwrap_or_default();
        let args: Vec<String> = parts.filter(|a| !a.is_empty()).map(String::from).collect();
        let source = if let Some(known) = VORTEX_KERNELS.iter().find(|k| k.name == name) {
            debug_assert!(known.vortex);
            Source::Vortex
        } else if let Some(k) = PROJECT_KERNELS.iter().find(|k| k.name == name) {
            Source::Project(k.files)
        } else {
            let names: Vec<&str> = catalogue().iter().map(|k| k.name).collect();
            return Err(Error::BadFlag {
                flag: "--kernels",
                value: spec.to_string(),
                message: format!(
                    "unknown kernel `{name}`; the kernels are {} (a kernel of your own: \
                     --kernel-dir)",
                    names.join(", ")
                ),
            });
        };
        Ok(Self {
            name: name.to_string(),
            source,
            args,
        })
    }

    /// A user's kernel folder, named by its Makefile's `PROJECT`; the error names
    /// `--kernel-dir` and what is missing or clashes.
    pub fn user(dir: &Path, args: &str) -> Result<Self, Error> {
        let bad = |message: String| Error::BadFlag {
            flag: "--kernel-dir",
            value: dir.display().to_string(),
            message,
        };
        let makefile = dir.join("Makefile");
        let text = fs::read_to_string(&makefile).map_err(|_| {
            bad(
                "has no Makefile: a kernel folder has Vortex's regression-test layout \
                 (Makefile with PROJECT, main.cpp, kernel.cpp, common.h)"
                    .to_string(),
            )
        })?;
        let name = text
            .lines()
            .find_map(|l| {
                let (key, value) = l.split_once(":=")?;
                (key.trim() == "PROJECT").then(|| value.trim().to_string())
            })
            .filter(|n| !n.is_empty())
            .ok_or_else(|| bad("has a Makefile without `PROJECT := name`".to_string()))?;
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(bad(format!(
                "names its PROJECT `{name}`: letters, digits, `_` and `-` only"
            )));
        }
        if catalogue().iter().any(|k| k.name == name) || VORTEX_TESTS.contains(&name.as_str()) {
            return Err(bad(format!(
                "names its PROJECT `{name}`, the name of a kernel of Vortex or rtl-gen; rename it"
            )));
        }
        Ok(Self {
            name,
            source: Source::User(dir.to_path_buf()),
            args: args.split_whitespace().map(String::from).collect(),
        })
    }
}

impl fmt::Display for KernelSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

/// Every folder of Vortex's `tests/regression/` at the pinned commit (a user's kernel may not
/// take one of these names).
const VORTEX_TESTS: [&str; 21] = [
    "basic",
    "conv3",
    "cta",
    "demo",
    "diverge",
    "dogfood",
    "dotproduct",
    "dropout",
    "fence",
    "io_addr",
    "madmax",
    "mstress",
    "printf",
    "relu",
    "sgemm",
    "sgemm2",
    "sgemm_tcu",
    "sgemv",
    "sort",
    "stencil3d",
    "vecadd",
];

/// A built kernel: its build folder (host program and `kernel.vxbin`).
#[derive(Debug, Clone)]
pub struct Built {
    /// The build folder.
    pub dir: PathBuf,
    /// The host program.
    pub host: PathBuf,
    /// The kernel binary.
    pub binary: PathBuf,
}

/// Builds `kernel` in `tree` (the project's and a user's sources are copied in first; make
/// rebuilds only what changed).
pub fn build(tree: &Tree, kernel: &KernelSpec, progress: &dyn Progress) -> Result<Built, Error> {
    let src = tree.src().join("tests/regression").join(&kernel.name);
    let dir = tree.build().join("tests/regression").join(&kernel.name);
    match &kernel.source {
        Source::Vortex => {}
        Source::Project(files) => {
            let mut changed = false;
            for file in files.iter().chain(&KERNEL_SHARED) {
                let dest = if file.name == "Makefile" {
                    dir.join(file.name)
                } else {
                    src.join(file.name)
                };
                changed |= write_if_changed(&dest, file.text.as_bytes())?;
            }
            if changed {
                clean(&dir, &kernel.name)?;
            }
        }
        Source::User(from) => {
            let mut changed = false;
            for entry in fs::read_dir(from).map_err(Error::io(from))? {
                let entry = entry.map_err(Error::io(from))?;
                let path = entry.path();
                if !path.is_file() {
                    continue;
                }
                let content = fs::read(&path).map_err(Error::io(&path))?;
                let name = entry.file_name();
                let dest = if name == "Makefile" {
                    dir.join(&name)
                } else {
                    src.join(&name)
                };
                changed |= write_if_changed(&dest, &content)?;
            }
            if changed {
                clean(&dir, &kernel.name)?;
            }
        }
    }
    progress.step(&format!("building kernel {}", kernel.name));
    let log = dir.join("build.log");
    run_logged(
        Command::new("make").arg("-C").arg(&dir),
        &format!("building kernel {}", kernel.name),
        &log,
    )?;
    Ok(Built {
        host: dir.join(&kernel.name),
        binary: dir.join("kernel.vxbin"),
        dir,
    })
}

/// Writes `content` to `path` (folders made) unless it already holds it, so that make sees an
/// unchanged source as unchanged; whether it wrote.
fn write_if_changed(path: &Path, content: &[u8]) -> Result<bool, Error> {
    if fs::read(path).is_ok_and(|old| old == content) {
        return Ok(false);
    }
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(Error::io(parent))?;
    }
    fs::write(path, content).map_err(Error::io(path))?;
    Ok(true)
}

/// Removes a kernel's binaries, so that make rebuilds them (their Makefile tracks the sources,
/// not the headers beside them).
fn clean(dir: &Path, name: &str) -> Result<(), Error> {
    for file in [name, "kernel.elf", "kernel.vxbin"] {
        let path = dir.join(file);
        crate::output::cleanup::remove(&path).map_err(Error::io(&path))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `NAME:ARG:ARG` splits at the colons; an unknown name is refused with the list.
    #[test]
    fn specs_parse_and_refuse() {
        let k = KernelSpec::parse("conv3:-n64:-l").unwrap();
        assert_eq!(
            (k.name.as_str(), k.args.clone()),
            ("conv3", vec!["-n64".into(), "-l".into()])
        );
        assert_eq!(k.source, Source::Vortex);
        assert_eq!(k.to_string(), "conv3 -n64 -l");
        let err = KernelSpec::parse("sort:-n8").unwrap_err().to_string();
        assert!(
            err.starts_with(
                "--kernels sort:-n8: unknown kernel `sort`; the kernels are sgemm2, conv3"
            ),
            "{err}"
        );
    }

    /// A user's folder is named by its Makefile's PROJECT and may not take a Vortex test's name.
    #[test]
    fn user_kernels_are_named_by_their_makefile() {
        let tmp = tempfile::tempdir().unwrap();
        let err = KernelSpec::user(tmp.path(), "").unwrap_err().to_string();
        assert!(err.contains("has no Makefile"), "{err}");
        fs::write(tmp.path().join("Makefile"), "PROJECT := sort\n").unwrap();
        let err = KernelSpec::user(tmp.path(), "").unwrap_err().to_string();
        assert!(
            err.contains("the name of a kernel of Vortex or rtl-gen"),
            "{err}"
        );
        fs::write(tmp.path().join("Makefile"), "PROJECT := mine\n").unwrap();
        let k = KernelSpec::user(tmp.path(), "-n32  -x").unwrap();
        assert_eq!((k.name.as_str(), k.args.len()), ("mine", 2));
    }
}
