//! Refusals as Python exceptions: [`RtlGenError`] (a `ValueError`) carrying the one line the
//! command line prints for the same value, without its `error: ` prefix.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;
use std::fmt::Display;

create_exception!(
    rtl_gen,
    RtlGenError,
    PyValueError,
    "A value rtl-gen refuses. The message is the one line the command line prints for the same \
     value (without `error: `): it names the value and what is allowed."
);

/// The exception for `message` (a model's, the CLI's or this package's own refusal).
pub fn refuse(message: impl Display) -> PyErr {
    RtlGenError::new_err(message.to_string())
}

/// The exception for rtl-gen's error `e` raised by a function whose parameters are the CLI's
/// `flags`: a model's out-of-range value is named by its flag, as the CLI names it for the same
/// arguments (`--banks 1: out of range: ...`; [`rtl_gen::Error::message_given`]).
pub fn refuse_flags(e: impl Into<rtl_gen::Error>, flags: &[&str]) -> PyErr {
    refuse(e.into().message_given(|flag| flags.contains(&flag)))
}
