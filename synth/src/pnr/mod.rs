//! Place and route of a generated block: the ASIC flow qflow (Yosys, graywolf, qrouter and vesta
//! on its OSU 0.18 um cells, [`qflow`]) and the FPGA flow for a Lattice ECP5 (Yosys'
//! `synth_ecp5` and nextpnr-ecp5 from PyPI's YoWASP packages, [`ecp5`]).
//!
//! Both time register-to-register paths only, so the block is placed inside a register
//! [`wrapper`]: every input but the clock, the reset and the static inputs goes through a
//! flip-flop, and so does every output. A static input (a hasher's `cfg_i`, written once while
//! the memory is idle) stays a port, so its paths are not timed, as `rtl-gen synth`'s false path
//! from it does. Each flow copies the RTL into its work folder and runs there, because the
//! YoWASP tools see a private `/tmp` and only the folders below the one they start in.

pub mod def;
pub mod ecp5;
mod error;
pub mod qflow;
mod tools;
pub mod wrapper;

pub use error::Error;
pub use wrapper::{Port, Wrapper, WrapperSpec};

use std::path::{Path, PathBuf};

/// What every place-and-route run needs: the block's files, how to wrap it, and where to work.
#[derive(Debug, Clone)]
pub struct PnrRequest {
    /// The block's Verilog files, each after the files it instantiates.
    pub files: Vec<PathBuf>,
    /// The block's ports, clock, reset and static inputs.
    pub wrapper: WrapperSpec,
    /// The flow's work folder: emptied of the flow's own files and written anew by each run.
    pub work_dir: PathBuf,
}

/// A sink for one-line progress messages (a spinner's), called from the running flow.
pub type Progress<'a> = &'a (dyn Fn(&str) + Sync);

/// Creates `dir` (and its parents) and returns its absolute path.
fn make_dir(dir: &Path) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    std::fs::canonicalize(dir).map_err(|e| Error::io(dir, e))
}

/// Removes `path` (a file or a folder) if it is there.
fn remove(path: &Path) -> Result<(), Error> {
    let result = if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    match result {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(path, e)),
        _ => Ok(()),
    }
}

/// Writes `text` to `path`.
fn write(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

/// Reads `path` as text.
fn read(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|e| Error::io(path, e))
}
