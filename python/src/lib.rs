//! The Python package `rtl_gen` (import name; distribution `rtl-gen`): rtl-gen's golden models
//! called from Python on NumPy arrays. One implementation: every function here calls the
//! `models` crate or rtl-gen's library; none holds a model of its own.
//!
//! - [`hash`]: `Hasher`, the hash families and the GF(2) matrix;
//! - [`wavefront`]: the DMM congestion, the wide-word models and the H100's wavefronts;
//! - [`swizzle`]: `Layout`, `check_layout`, `best_layout`: CuTe, TMA and Triton swizzles;
//! - [`rap`]: `RapLayout` (RAW, RAS, RAP, 3P) and `simulate_congestion`, the RAP paper's
//!   Tables II and IV;
//! - [`search`]: `search`, the best configuration of each hash family for a trace;
//! - [`trace`]: traces as text, files or arrays;
//! - [`smem`]: `SharedMemory`, `Access`: the shared memory's cycle model;
//! - [`array`]: NumPy arrays in and out, computed without the GIL;
//! - [`error`]: `RtlGenError`, carrying the CLI's one-line messages.

mod array;
mod error;
mod hash;
mod rap;
mod search;
mod smem;
mod swizzle;
mod trace;
mod wavefront;

use pyo3::prelude::*;

/// rtl-gen's golden models (bank hashes, swizzles, wavefronts, congestion, RAP, the search,
/// the shared memory's cycle model) on NumPy arrays.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("RtlGenError", m.py().get_type::<error::RtlGenError>())?;
    m.add_class::<hash::Hasher>()?;
    m.add_function(wrap_pyfunction!(wavefront::congestion, m)?)?;
    m.add_function(wrap_pyfunction!(wavefront::wide_congestion, m)?)?;
    m.add_function(wrap_pyfunction!(wavefront::wavefronts, m)?)?;
    m.add_function(wrap_pyfunction!(wavefront::ideal_wavefronts, m)?)?;
    m.add_class::<swizzle::Layout>()?;
    m.add_class::<swizzle::AccessCost>()?;
    m.add_class::<swizzle::LayoutCheck>()?;
    m.add_class::<swizzle::BestLayout>()?;
    m.add_class::<swizzle::LayoutReport>()?;
    m.add_function(wrap_pyfunction!(swizzle::best_layout, m)?)?;
    m.add_function(wrap_pyfunction!(swizzle::check_layout, m)?)?;
    m.add_class::<rap::RapLayout>()?;
    m.add_class::<rap::CongestionCell>()?;
    m.add_class::<rap::CongestionTable>()?;
    m.add_function(wrap_pyfunction!(rap::simulate_congestion, m)?)?;
    m.add_class::<search::SearchResult>()?;
    m.add_class::<search::SearchReport>()?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_class::<smem::SharedMemory>()?;
    m.add_class::<smem::Access>()?;
    m.add_class::<smem::Outputs>()?;
    Ok(())
}
