//! Kernel traces from Python: trace text (docs/TRACE_FORMAT.md), a trace file (a path), or an
//! array of addresses, one warp access a row; what `search` and `check_layout` read.

use crate::error::refuse;
use models::geometry::low_mask;
use models::search::trace::{TraceError, TraceErrorKind};
use models::search::{Access, Trace};
use numpy::{PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::path::PathBuf;

/// The most warp accesses of a trace given as an array.
pub const MAX_TRACE_WARPS: usize = 1 << 24;

/// The trace `obj` holds: text (a `str`), a file (an `os.PathLike`, read and refused as the
/// CLI's `--trace` reads it) or an array of addresses (one warp access a row, a 1-D array one
/// access); every address must fit `addr_bits` bits and every warp access `warp_size` threads.
/// Also returns the trace's name: the file's stem, else `trace`.
pub fn read(obj: &Bound<'_, PyAny>, addr_bits: u32, warp_size: usize) -> PyResult<(String, Trace)> {
    if let Ok(text) = obj.cast::<PyString>() {
        let trace = Trace::parse(&text.to_string(), addr_bits, warp_size)
            .map_err(|e| refuse(format!("trace: {e}")))?;
        return Ok(("trace".into(), trace));
    }
    if obj.hasattr("__fspath__")? {
        let path: PathBuf = obj.extract()?;
        let trace = rtl_gen::trace::read(&path, addr_bits, warp_size).map_err(refuse)?;
        return Ok((rtl_gen::trace::name(&path), trace));
    }
    let array = crate::array::u64_array(obj, "trace")?;
    let array = array.readonly();
    let shape = array.shape().to_vec();
    let (rows, threads) = match shape.as_slice() {
        [t] => (1, *t),
        [r, t] => (*r, *t),
        _ => {
            return Err(refuse(
                "trace: give one warp access (1-D) or one a row (2-D)",
            ))
        }
    };
    if threads == 0 || threads > warp_size || rows == 0 || rows > MAX_TRACE_WARPS {
        return Err(refuse(format!(
            "trace: {rows} warp accesses of {threads} threads: 1 to {MAX_TRACE_WARPS} accesses of \
             1 to {warp_size} threads"
        )));
    }
    let values = array.as_slice()?;
    let limit = low_mask(addr_bits);
    if let Some(i) = values.iter().position(|&a| a & !limit != 0) {
        let kind = TraceErrorKind::TooWide {
            address: values[i],
            addr_bits,
        };
        let error = TraceError { line: None, kind };
        return Err(refuse(format!(
            "trace: warp access {}: {error}",
            i / threads
        )));
    }
    let trace = Trace {
        accesses: values
            .chunks(threads)
            .enumerate()
            .map(|(i, a)| Access {
                label: format!("warp[{i}]"),
                addresses: a.to_vec(),
            })
            .collect(),
    };
    Ok(("trace".into(), trace))
}
