//! The bank-conflict models over NumPy arrays of warp accesses: the DMM congestion, the wide-word
//! models of docs/GPU.md and the wavefronts an H100 takes (docs/SWIZZLE.md).

use crate::array::Warps;
use crate::error::refuse;
use crate::hash::MAX_THREADS;
use models::congestion::{congestion as dmm, wide_congestion_of_threads, WideModel};
use models::swizzle::access::{WARP, WIDTHS};
use models::swizzle::wavefront::{ideal_wavefronts as ideal, warp_wavefronts, Instruction};
use pyo3::prelude::*;

/// The DMM congestion of each warp access in ``banks`` banks, ``bank = address % banks``: the
/// most distinct addresses one bank receives (identical addresses merge, a broadcast).
/// ``accesses`` is one access (1-D: an int back) or one a row (2-D: a ``uint32`` array back);
/// ``active`` (booleans, same shape) masks threads off. Use :meth:`Hasher.congestion` for a
/// hashed memory.
#[pyfunction]
#[pyo3(signature = (accesses, banks=32, active=None))]
pub fn congestion<'py>(
    accesses: &Bound<'py, PyAny>,
    banks: u64,
    active: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    if banks == 0 {
        return Err(refuse("banks = 0 is out of range: allowed at least 1"));
    }
    let warps = Warps::read(accesses, active, "accesses", MAX_THREADS)?;
    warps.map_threads(accesses.py(), |t| {
        let addresses: Vec<u64> = t.iter().flatten().copied().collect();
        dmm(&addresses, |a| a % banks)
    })
}

/// The model by name.
fn wide_model(name: &str) -> PyResult<WideModel> {
    WideModel::ALL
        .into_iter()
        .find(|m| m.name() == name)
        .ok_or_else(|| {
            refuse(format!(
                "model = {name} is out of range: allowed {}",
                WideModel::ALL.map(WideModel::name).join(", ")
            ))
        })
}

/// The congestion of warp accesses to words of ``word_bytes`` bytes (a multiple of 4) in
/// ``banks`` 4-byte banks; ``indices`` are the threads' word indices (one access a row).
/// ``model``: ``warp`` (the whole warp at once), ``groups`` (``banks * 4 / word_bytes``
/// threads at a time: half-warps for 8-byte words) or ``load-groups`` (``groups``, except
/// that a warp touching each 4-byte bank word at most once takes one pass). An H100 serves
/// 8-byte loads as ``load-groups`` and stores as ``groups`` (docs/GPU.md, 678 launches).
/// ``active`` masks threads off; the groups stay by thread position.
#[pyfunction]
#[pyo3(signature = (indices, word_bytes, banks=32, model="load-groups", active=None))]
pub fn wide_congestion<'py>(
    indices: &Bound<'py, PyAny>,
    word_bytes: u64,
    banks: u64,
    model: &str,
    active: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    if word_bytes == 0 || !word_bytes.is_multiple_of(4) || word_bytes > 1024 {
        return Err(refuse(format!(
            "word_bytes = {word_bytes} is out of range: allowed a multiple of 4 from 4 to 1024"
        )));
    }
    if banks == 0 {
        return Err(refuse("banks = 0 is out of range: allowed at least 1"));
    }
    let model = wide_model(model)?;
    let warps = Warps::read(indices, active, "indices", MAX_THREADS)?;
    warps.map_threads(indices.py(), |t| {
        wide_congestion_of_threads(t, word_bytes, banks, model)
    })
}

/// The instruction by name, checked against the width.
fn instruction(name: &str, width: u32) -> PyResult<Instruction> {
    if !WIDTHS.contains(&width) {
        return Err(refuse(format!(
            "width = {width} is out of range: allowed 4, 8 or 16 bytes"
        )));
    }
    let i = [Instruction::Load, Instruction::Store, Instruction::Ldmatrix]
        .into_iter()
        .find(|i| i.name() == name)
        .ok_or_else(|| {
            refuse(format!(
                "instruction = {name} is out of range: allowed load, store or ldmatrix"
            ))
        })?;
    if i == Instruction::Ldmatrix && width != 16 {
        return Err(refuse(format!(
            "width = {width} is out of range: ldmatrix moves 16-byte rows"
        )));
    }
    Ok(i)
}

/// The warp accesses of `offsets`, checked: at most a warp of threads, each offset on a vector.
fn vectors<'py>(offsets: &Bound<'py, PyAny>, width: u32) -> PyResult<Warps<'py>> {
    let warps = Warps::read(offsets, None, "offsets", WARP)?;
    let w = u64::from(width);
    if let Some(x) = warps.find(offsets.py(), |x| x % w != 0)? {
        return Err(refuse(format!(
            "offsets: {x} is not on a {width}-byte vector (a multiple of {width})"
        )));
    }
    Ok(warps)
}

/// The wavefronts (passes over the 32 banks) an H100 takes for each warp access, the model of
/// docs/SWIZZLE.md checked on 428 launches. ``offsets``: the byte offset where each thread's
/// ``width``-byte vector starts in shared memory (one access a row, at most 32 threads, thread 0
/// first; 1-D: one access, an int back). ``instruction``: ``load`` (``ld.shared``), ``store``
/// (``st.shared``) or ``ldmatrix`` (``ldmatrix.x4``, 16-byte rows).
#[pyfunction]
#[pyo3(signature = (offsets, width=4, instruction="load"))]
pub fn wavefronts<'py>(
    offsets: &Bound<'py, PyAny>,
    width: u32,
    instruction: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let op = self::instruction(instruction, width)?;
    let warps = vectors(offsets, width)?;
    warps.map_full(
        offsets.py(),
        "wavefronts are counted for whole warps",
        |p| warp_wavefronts(p, width, op),
    )
}

/// The fewest wavefronts any layout could give the same accesses (``offsets`` as for
/// :func:`wavefronts`, logical): every thread group in as few passes as its distinct vectors
/// need.
#[pyfunction]
#[pyo3(signature = (offsets, width=4, instruction="load"))]
pub fn ideal_wavefronts<'py>(
    offsets: &Bound<'py, PyAny>,
    width: u32,
    instruction: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let op = self::instruction(instruction, width)?;
    let warps = vectors(offsets, width)?;
    warps.map_full(
        offsets.py(),
        "wavefronts are counted for whole warps",
        |p| ideal(p, width, op),
    )
}
