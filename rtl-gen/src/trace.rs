//! Kernel trace files (docs/TRACE_FORMAT.md), read with refusals that name the file and, where
//! there is one, the line: what `rtl-gen search`, `rtl-gen smem --replay` and `rtl-gen swizzle
//! --trace` read.

use crate::Error;
use models::search::Trace;
use std::path::Path;

/// Reads and parses the trace in `path`: addresses of `addr_bits` bits, at most `warp_size` a
/// line.
pub fn read(path: &Path, addr_bits: u32, warp_size: usize) -> Result<Trace, Error> {
    let text = std::fs::read_to_string(path).map_err(Error::io(path))?;
    Trace::parse(&text, addr_bits, warp_size).map_err(|source| Error::Trace {
        path: path.to_path_buf(),
        source,
    })
}

/// A trace's name in reports and folders: its file's stem (`kernels/fwt.trace`: `fwt`).
pub fn name(path: &Path) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}
