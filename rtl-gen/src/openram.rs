//! SRAM macros made by OpenRAM (PyPI `openram`, [`OPENRAM_VERSION`]) for a shared memory's
//! banks, cached by their parameters.
//!
//! OpenRAM needs NumPy below 2 while the project's `.venv/` pins NumPy 2 for its benchmarks and
//! its Python package, so it runs in its own virtual environment, created on first use under
//! the cache (`python3 -m venv`, then `pip install openram==1.2.48 "numpy<2"`; a minute or two
//! and about 200 MB). A macro takes 5 to 40 minutes on two cores (docs/SMEM.md), so each is made
//! once: `<cache>/openram-<version>/<name>/` holds its configuration, OpenRAM's outputs (`.lib`,
//! `.lef`, `.v`, `.gds`, the datasheet) and its log, and a later request for the same
//! parameters reuses it. The cache is `$RTL_GEN_CACHE`, else `$XDG_CACHE_HOME/rtl-gen`, else
//! `~/.cache/rtl-gen`.
//!
//! Configuration (the one the ready-made macros in `../shared/pdk/openram/` were made with):
//! one read-write port, byte write masks, the technology's nominal corner, OpenRAM's analytical
//! delay model (no SPICE simulator needed), no DRC/LVS (no Magic or Netgen needed),
//! `use_conda = False` (else OpenRAM installs Miniconda) and `OPENRAM_TMP` in the macro's own
//! folder.

use crate::Error;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The OpenRAM release the macros are made with.
pub const OPENRAM_VERSION: &str = "1.2.48";

/// A technology OpenRAM's wheel carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tech {
    /// NCSU FreePDK45: the node NanGate45 is drawn in.
    FreePdk45,
    /// MOSIS SCMOS `scn4m_subm` (0.5 um).
    Scn4mSubm,
}

impl Tech {
    /// Every technology, in the order `--sram-macro openram:TECH` lists them.
    pub const ALL: [Tech; 2] = [Tech::FreePdk45, Tech::Scn4mSubm];

    /// OpenRAM's `tech_name`.
    pub fn name(self) -> &'static str {
        match self {
            Tech::FreePdk45 => "freepdk45",
            Tech::Scn4mSubm => "scn4m_subm",
        }
    }

    /// The technology called `name`.
    pub fn parse(name: &str) -> Option<Tech> {
        Tech::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Its nominal supply in volts, which OpenRAM's file names carry (`_TT_1p0V_25C.lib`).
    fn supply(self) -> &'static str {
        match self {
            Tech::FreePdk45 => "1.0",
            Tech::Scn4mSubm => "5.0",
        }
    }
}

/// The macro's name (and its module's): `sram_<words>x<bits>_<tech>`.
pub fn macro_name(tech: Tech, words: u32, word_bits: u32) -> String {
    format!("sram_{words}x{word_bits}_{}", tech.name())
}

/// The cache folder: `$RTL_GEN_CACHE`, else `$XDG_CACHE_HOME/rtl-gen`, else
/// `$HOME/.cache/rtl-gen`.
pub fn cache_root() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(root) = var("RTL_GEN_CACHE") {
        return PathBuf::from(root);
    }
    let base = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("rtl-gen")
}

/// OpenRAM's configuration file for a macro.
fn config(tech: Tech, words: u32, word_bits: u32, name: &str) -> String {
    format!(
        "# Written by rtl-gen (rtl-gen/src/openram.rs): one bank of a shared memory.\n\
         word_size = {word_bits}\n\
         num_words = {words}\n\
         write_size = 8\n\
         num_rw_ports = 1\n\
         tech_name = \"{tech}\"\n\
         nominal_corner_only = True\n\
         process_corners = [\"TT\"]\n\
         supply_voltages = [{supply}]\n\
         temperatures = [25]\n\
         use_conda = False\n\
         check_lvsdrc = False\n\
         analytical_delay = True\n\
         route_supplies = \"ring\"\n\
         output_path = \"out\"\n\
         output_name = \"{name}\"\n",
        tech = tech.name(),
        supply = tech.supply(),
    )
}

/// The driver OpenRAM runs under (what its `sram_compiler.py` does, with the library
/// installed).
const DRIVER: &str = "\
# Written by rtl-gen: make the SRAM the configuration file names.
import sys
import openram
(OPTS, args) = openram.parse_args()
OPTS.top_process = 'openram'
openram.init_openram(config_file=args[0])
openram.setup_bitcell()
from openram import sram
sram().save()
openram.end_openram()
";

/// The liberty file of the macro made in `folder`, if it is complete.
fn made(folder: &Path, name: &str) -> Option<PathBuf> {
    if !folder.join("done").is_file() {
        return None;
    }
    let out = folder.join("out");
    std::fs::read_dir(&out)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{name}_")) && n.ends_with(".lib"))
        })
}

/// Runs `command` with its output in `log`; an error naming `what` when it fails.
fn run(mut command: Command, log: &Path, name: &str, what: &str) -> Result<(), Error> {
    let file = std::fs::File::create(log).map_err(|source| Error::Io {
        path: log.to_path_buf(),
        source,
    })?;
    let err = file.try_clone().map_err(|source| Error::Io {
        path: log.to_path_buf(),
        source,
    })?;
    let status = hdl_util::children::spawn(command.stdin(Stdio::null()).stdout(file).stderr(err))
        .and_then(|mut running| running.child().wait())
        .map_err(|e| Error::OpenRam {
            name: name.to_string(),
            reason: format!("{what} did not start: {e}"),
            log: log.to_path_buf(),
        })?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::OpenRam {
            name: name.to_string(),
            reason: format!("{what} failed ({status})"),
            log: log.to_path_buf(),
        })
    }
}

/// OpenRAM's own virtual environment under `root`, created when missing; its Python.
fn environment(root: &Path, name: &str, progress: &dyn Fn(&str)) -> Result<PathBuf, Error> {
    let venv = root.join("venv");
    let python = venv.join("bin/python");
    let marker = venv.join("rtl-gen-installed");
    if marker.is_file() {
        return Ok(python);
    }
    progress(&format!(
        "creating OpenRAM {OPENRAM_VERSION}'s Python environment in {} (once)",
        venv.display()
    ));
    let mut create = Command::new("python3");
    create.args(["-m", "venv"]).arg(&venv);
    run(create, &root.join("venv.log"), name, "python3 -m venv")?;
    let mut install = Command::new(&python);
    install
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .arg(format!("openram=={OPENRAM_VERSION}"))
        .arg("numpy<2");
    run(install, &root.join("pip.log"), name, "pip install openram")?;
    write(&marker, OPENRAM_VERSION)?;
    Ok(python)
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The liberty file of the OpenRAM macro of `words` words of `word_bits` bits in `tech`: from
/// the cache, or made now (minutes; `progress` hears what is happening). Its `.lef` and `.v`
/// are beside it.
///
/// Errors: [`Error::Io`] (the cache), [`Error::OpenRam`] (the environment or OpenRAM failed,
/// with its log).
pub fn generate(
    tech: Tech,
    words: u32,
    word_bits: u32,
    progress: &dyn Fn(&str),
) -> Result<PathBuf, Error> {
    let name = macro_name(tech, words, word_bits);
    let root = cache_root().join(format!("openram-{OPENRAM_VERSION}"));
    let folder = root.join(&name);
    if let Some(lib) = made(&folder, &name) {
        return Ok(lib);
    }
    let tmp = folder.join("tmp");
    std::fs::create_dir_all(&tmp).map_err(|source| Error::Io {
        path: tmp.clone(),
        source,
    })?;
    // One maker per macro: a second rtl-gen waits here, then finds it made.
    let lock_path = folder.join("lock");
    let lock = std::fs::File::create(&lock_path).map_err(|source| Error::Io {
        path: lock_path.clone(),
        source,
    })?;
    fs2::FileExt::lock_exclusive(&lock).map_err(|source| Error::Io {
        path: lock_path.clone(),
        source,
    })?;
    if let Some(lib) = made(&folder, &name) {
        return Ok(lib);
    }
    let python = environment(&root, &name, progress)?;
    write(
        &folder.join("config.py"),
        &config(tech, words, word_bits, &name),
    )?;
    write(&folder.join("driver.py"), DRIVER)?;
    progress(&format!(
        "OpenRAM {OPENRAM_VERSION} is making {name} in {} (5 to 40 minutes; log: openram.log)",
        folder.display()
    ));
    let mut openram = Command::new(&python);
    openram
        .args(["driver.py", "config.py"])
        .current_dir(&folder)
        .env("OPENRAM_TMP", &tmp);
    run(openram, &folder.join("openram.log"), &name, "OpenRAM")?;
    write(&folder.join("done"), "")?;
    made(&folder, &name).ok_or_else(|| Error::OpenRam {
        name: name.clone(),
        reason: "no liberty file among its outputs".into(),
        log: folder.join("openram.log"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_configuration() {
        assert_eq!(
            macro_name(Tech::FreePdk45, 512, 32),
            "sram_512x32_freepdk45"
        );
        assert_eq!(Tech::parse("scn4m_subm"), Some(Tech::Scn4mSubm));
        assert_eq!(Tech::parse("sky130"), None);
        let c = config(Tech::FreePdk45, 512, 32, "sram_512x32_freepdk45");
        for line in [
            "word_size = 32\n",
            "num_words = 512\n",
            "write_size = 8\n",
            "tech_name = \"freepdk45\"\n",
            "supply_voltages = [1.0]\n",
            "use_conda = False\n",
            "analytical_delay = True\n",
            "output_name = \"sram_512x32_freepdk45\"\n",
        ] {
            assert!(c.contains(line), "{line}");
        }
    }

    #[test]
    fn a_made_macro_is_found_in_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let name = "sram_16x32_freepdk45";
        assert_eq!(made(dir.path(), name), None);
        std::fs::create_dir(dir.path().join("out")).unwrap();
        let lib = dir
            .path()
            .join("out")
            .join(format!("{name}_TT_1p0V_25C.lib"));
        std::fs::write(&lib, "library (x) { }\n").unwrap();
        assert_eq!(made(dir.path(), name), None, "not done yet");
        std::fs::write(dir.path().join("done"), "").unwrap();
        assert_eq!(made(dir.path(), name), Some(lib));
    }
}
