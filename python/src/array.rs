//! NumPy arrays in and out: any array of non-negative integers (or a list, or one int) in, a
//! `uint64` array of the same shape (or one int) out, computed without the GIL.

use crate::error::refuse;
use numpy::{PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyInt, PyString, PyTuple};
use rayon::prelude::*;

/// Elements per unit of parallel work.
const CHUNK: usize = 1 << 16;

/// `obj` as a C-contiguous `uint64` array: a `uint64` array as it is, other unsigned arrays
/// cast, signed ones cast after a check that none is negative; floats and the rest refused.
/// `name` is the argument's name in the refusal.
pub fn u64_array<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let py = obj.py();
    if let Ok(array) = obj.cast::<PyArrayDyn<u64>>() {
        if array.is_c_contiguous() {
            return Ok(array.clone());
        }
    }
    let np = py.import("numpy")?;
    let array = np.call_method1("asarray", (obj,))?;
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    match kind.as_str() {
        "u" => {}
        "i" | "O" => {
            if array.getattr("size")?.extract::<usize>()? > 0 {
                let least = array.call_method0("min")?;
                if least.lt(0)? {
                    return Err(refuse(format!(
                        "{name}: {least} is negative: give non-negative integers"
                    )));
                }
            }
        }
        _ => {
            return Err(PyTypeError::new_err(format!(
                "{name}: an array of {}: give non-negative integers",
                dtype.str()?
            )))
        }
    }
    let kwargs = [("dtype", np.getattr("uint64")?)].into_py_dict(py)?;
    let converted = np.call_method("ascontiguousarray", (array,), Some(&kwargs))?;
    Ok(converted.cast_into::<PyArrayDyn<u64>>()?)
}

/// `f` of every element of `obj`: one int for an int, else a `uint64` array of `obj`'s shape.
/// The elements are mapped in parallel chunks with the GIL released.
pub fn map_u64<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    f: impl Fn(u64) -> u64 + Sync,
) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    if obj.is_instance_of::<PyInt>() {
        let value: u64 = obj
            .extract()
            .map_err(|_| refuse(format!("{name}: {obj} is not an unsigned 64-bit integer")))?;
        return Ok(PyInt::new(py, f(value)).into_any());
    }
    let input = u64_array(obj, name)?;
    let input = input.readonly();
    // SAFETY: every element of the new array is written below before it is returned.
    let output = unsafe { PyArrayDyn::<u64>::new(py, input.shape(), false) };
    {
        let mut out = output.readwrite();
        let dst = out
            .as_slice_mut()
            .map_err(|e| refuse(format!("{name}: {e}")))?;
        let src = input
            .as_slice()
            .map_err(|e| refuse(format!("{name}: {e}")))?;
        py.detach(|| {
            dst.par_chunks_mut(CHUNK)
                .zip(src.par_chunks(CHUNK))
                .for_each(|(d, s)| {
                    for (o, &a) in d.iter_mut().zip(s) {
                        *o = f(a);
                    }
                })
        });
    }
    Ok(output.into_any())
}

/// Names given as a list or as one comma-separated string (`"rows,cols"`).
pub fn name_list(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s
            .to_string()
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect());
    }
    obj.extract()
}

/// Warp accesses: a 2-D array, one warp access a row (thread 0 first), or one 1-D access, with
/// an optional boolean mask of the active threads.
pub struct Warps<'py> {
    values: PyReadonlyArrayDyn<'py, u64>,
    active: Option<PyReadonlyArrayDyn<'py, bool>>,
    /// Warp accesses.
    pub rows: usize,
    /// Threads per warp access.
    pub threads: usize,
    /// Whether one 1-D access was given (the answer is then one int).
    single: bool,
}

impl<'py> Warps<'py> {
    /// Reads `obj` (and the boolean `active` mask of the same shape, if given), refusing more
    /// than `max_threads` threads a warp access.
    pub fn read(
        obj: &Bound<'py, PyAny>,
        active: Option<&Bound<'py, PyAny>>,
        name: &str,
        max_threads: usize,
    ) -> PyResult<Self> {
        let values = u64_array(obj, name)?.readonly();
        let shape = values.shape().to_vec();
        let (rows, threads, single) = match shape.as_slice() {
            [t] => (1, *t, true),
            [r, t] => (*r, *t, false),
            _ => {
                return Err(refuse(format!(
                    "{name}: an array of {} dimensions: give one warp access (1-D) or one a row \
                     (2-D)",
                    shape.len()
                )))
            }
        };
        if threads > max_threads {
            return Err(refuse(format!(
                "{name}: {threads} threads a warp access: at most {max_threads}"
            )));
        }
        let active = match active {
            None => None,
            Some(mask) => {
                let py = mask.py();
                let np = py.import("numpy")?;
                let kwargs = [("dtype", np.getattr("bool_")?)].into_py_dict(py)?;
                let mask = np.call_method("ascontiguousarray", (mask,), Some(&kwargs))?;
                let mask = mask.cast_into::<PyArrayDyn<bool>>()?.readonly();
                if mask.shape() != shape.as_slice() {
                    return Err(refuse(format!(
                        "active: shape {:?} differs from the shape of {name}, {shape:?}",
                        mask.shape()
                    )));
                }
                Some(mask)
            }
        };
        Ok(Self {
            values,
            active,
            rows,
            threads,
            single,
        })
    }

    /// The first address (in row-major order) for which `bad` holds, searched without the GIL.
    pub fn find(&self, py: Python<'py>, bad: impl Fn(u64) -> bool + Sync) -> PyResult<Option<u64>> {
        let values = self.values.as_slice()?;
        Ok(py.detach(|| values.par_iter().copied().find_first(|&v| bad(v))))
    }

    /// Whether any thread is inactive.
    pub fn masked(&self) -> bool {
        self.active.is_some()
    }

    /// The addresses of warp access `r`, every thread active.
    fn row(values: &[u64], threads: usize, r: usize) -> &[u64] {
        &values[r * threads..(r + 1) * threads]
    }

    /// The answers as Python sees them: one int for a 1-D access, else a `uint32` array.
    fn answer(&self, py: Python<'py>, out: Vec<u32>) -> Bound<'py, PyAny> {
        if self.single {
            return PyInt::new(py, out[0]).into_any();
        }
        numpy::PyArray1::from_vec(py, out).into_any()
    }

    /// `f` of every warp access, every thread active (a mask is refused, naming `why`), in
    /// parallel without the GIL.
    pub fn map_full(
        &self,
        py: Python<'py>,
        why: &str,
        f: impl Fn(&[u64]) -> u32 + Sync,
    ) -> PyResult<Bound<'py, PyAny>> {
        if self.masked() {
            return Err(refuse(format!("active: {why}")));
        }
        let values = self.values.as_slice()?;
        let (rows, threads) = (self.rows, self.threads);
        let out: Vec<u32> = py.detach(|| {
            (0..rows)
                .into_par_iter()
                .with_min_len(min_len(threads))
                .map(|r| f(Self::row(values, threads, r)))
                .collect()
        });
        Ok(self.answer(py, out))
    }

    /// `f` of every warp access (its threads, `None` for an inactive one), in parallel without
    /// the GIL.
    pub fn map_threads(
        &self,
        py: Python<'py>,
        f: impl Fn(&[Option<u64>]) -> u32 + Sync,
    ) -> PyResult<Bound<'py, PyAny>> {
        let values = self.values.as_slice()?;
        let mask = match &self.active {
            Some(m) => Some(m.as_slice()?),
            None => None,
        };
        let (rows, threads) = (self.rows, self.threads);
        let out: Vec<u32> = py.detach(|| {
            (0..rows)
                .into_par_iter()
                .with_min_len(min_len(threads))
                .map(|r| {
                    let row = Self::row(values, threads, r);
                    let warp: Vec<Option<u64>> = match mask {
                        None => row.iter().copied().map(Some).collect(),
                        Some(m) => row
                            .iter()
                            .zip(&m[r * threads..(r + 1) * threads])
                            .map(|(&v, &on)| on.then_some(v))
                            .collect(),
                    };
                    f(&warp)
                })
                .collect()
        });
        Ok(self.answer(py, out))
    }
}

/// Warp accesses per unit of parallel work: about [`CHUNK`] addresses.
fn min_len(threads: usize) -> usize {
    (CHUNK / threads.max(1)).max(1)
}

/// Index arrays broadcast together by NumPy's rules (`numpy.broadcast_arrays`), each converted
/// as [`u64_array`] does, and answered elementwise.
pub struct Broadcast<'py> {
    arrays: Vec<PyReadonlyArrayDyn<'py, u64>>,
    names: Vec<String>,
    shape: Vec<usize>,
    /// Whether every argument was one int (the answer is then one int).
    scalar: bool,
}

impl<'py> Broadcast<'py> {
    /// Reads `objs`, named `names` in refusals, and broadcasts them to one shape.
    pub fn read(objs: &[Bound<'py, PyAny>], names: &[&str]) -> PyResult<Self> {
        let py = objs
            .first()
            .map(Bound::py)
            .ok_or_else(|| refuse("no index given"))?;
        let scalar = objs.iter().all(|o| o.is_instance_of::<PyInt>());
        let converted = objs
            .iter()
            .zip(names)
            .map(|(o, n)| u64_array(o, n))
            .collect::<PyResult<Vec<_>>>()?;
        let np = py.import("numpy")?;
        let broadcast = np
            .call_method1("broadcast_arrays", PyTuple::new(py, &converted)?)
            .map_err(|e| {
                refuse(format!(
                    "{}: the shapes do not broadcast together: {}",
                    names.join(", "),
                    e.value(py)
                ))
            })?;
        let kwargs = [("dtype", np.getattr("uint64")?)].into_py_dict(py)?;
        let arrays = broadcast
            .try_iter()?
            .map(|a| {
                let a = np.call_method("ascontiguousarray", (a?,), Some(&kwargs))?;
                Ok(a.cast_into::<PyArrayDyn<u64>>()?.readonly())
            })
            .collect::<PyResult<Vec<_>>>()?;
        let shape = arrays
            .first()
            .map(|a| a.shape().to_vec())
            .unwrap_or_default();
        Ok(Self {
            arrays,
            names: names.iter().map(|n| n.to_string()).collect(),
            shape,
            scalar,
        })
    }

    /// Refuses any index at or above `bound`, naming its argument and what is allowed.
    pub fn check_below(&self, py: Python<'py>, bound: u64) -> PyResult<()> {
        for (array, name) in self.arrays.iter().zip(&self.names) {
            let values = array.as_slice()?;
            if let Some(v) = py.detach(|| values.par_iter().copied().find_first(|&v| v >= bound)) {
                return Err(refuse(format!(
                    "{name}: {v} is out of range: allowed 0 to {}",
                    bound.saturating_sub(1)
                )));
            }
        }
        Ok(())
    }

    /// `f` of each element's indices (one from each array, in argument order): one int when
    /// every argument was an int, else a `uint64` array of the broadcast shape; computed in
    /// parallel chunks with the GIL released.
    pub fn map(
        &self,
        py: Python<'py>,
        f: impl Fn(&[u64]) -> u64 + Sync,
    ) -> PyResult<Bound<'py, PyAny>> {
        let inputs = self
            .arrays
            .iter()
            .map(|a| a.as_slice())
            .collect::<Result<Vec<_>, _>>()?;
        let len = inputs.first().map_or(0, |a| a.len());
        let mut out = vec![0u64; len];
        py.detach(|| {
            out.par_chunks_mut(CHUNK).enumerate().for_each(|(c, d)| {
                let mut index = vec![0u64; inputs.len()];
                for (k, o) in d.iter_mut().enumerate() {
                    let i = c * CHUNK + k;
                    for (x, a) in index.iter_mut().zip(&inputs) {
                        *x = a[i];
                    }
                    *o = f(&index);
                }
            })
        });
        if self.scalar {
            return Ok(PyInt::new(py, out[0]).into_any());
        }
        let flat = numpy::PyArray1::from_vec(py, out);
        Ok(flat.reshape(self.shape.clone())?.into_any())
    }
}
