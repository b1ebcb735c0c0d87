//! The RAP paper from Python: `RapLayout` (the RAW, RAS, RAP and 3P address maps, built by
//! rtl-gen's own `TableRequest`, so that a layout is the converter `rtl-gen rap` generates for
//! the same arguments) over NumPy arrays, and `simulate_congestion`, the Monte Carlo simulator of
//! the paper's Tables II and IV that `rtl-gen congestion` runs.

use crate::array::{name_list, Broadcast, Warps};
use crate::error::{refuse, refuse_flags};
use crate::hash::MAX_THREADS;
use models::congestion::congestion;
use models::rap::packed::pack;
use models::rap::{paper, simulate, CellResult, Scheme, ShiftLayout};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rtl_gen::rap::congestion as report;
use rtl_gen::rap::design::{RapKind, TableRequest};
use rtl_gen::rap::ConverterMap;

/// The address map of a matrix (or, for 3P, a ``w^4`` array) spread over ``w`` banks by row
/// shifts: element ``(row, col)`` of a ``w x w`` matrix lies at address
/// ``row * w + (col + shift[row]) % w``, in bank ``(col + shift[row]) % w``.
///
/// ``RapLayout(kind="rap", banks=32, seed=7)`` is the converter
/// ``rtl-gen rap --kind rap --banks 32 --rap-seed 7`` generates, with the same arguments and
/// refusals: ``kind`` is ``rap`` (the shifts a permutation), ``ras`` (independent shifts),
/// ``3p`` (a ``w^4`` array, ``bank = (l + r[i] + s[j] + t[k]) % w``) or ``raw`` (row-major,
/// no shift); ``seed`` draws the tables (``--rap-seed``, default 1), ``perm`` gives RAP's
/// permutation (``--perm``), ``shifts`` RAS's shifts (``--shifts``), ``wide`` keeps 8-byte
/// words conflict-free too (``--wide``).
#[pyclass(module = "rtl_gen", frozen)]
pub struct RapLayout {
    map: ConverterMap,
    kind: &'static str,
    seed: Option<u64>,
    wide: bool,
}

/// The flags of `rtl-gen rap` that `RapLayout`'s parameters are.
const RAP_FLAGS: &[&str] = &[
    "--kind",
    "--banks",
    "--rap-seed",
    "--perm",
    "--shifts",
    "--wide",
];

/// The flags of `rtl-gen congestion` that `simulate_congestion`'s parameters are.
const CONGESTION_FLAGS: &[&str] = &[
    "--dims",
    "--banks",
    "--kinds",
    "--pattern",
    "--trials",
    "--seed",
];

/// Numbers given from Python as the text `--perm` and `--shifts` take.
fn texts(values: Option<Vec<u64>>) -> Option<Vec<String>> {
    values.map(|v| v.iter().map(u64::to_string).collect())
}

#[pymethods]
impl RapLayout {
    #[new]
    #[pyo3(signature = (kind="rap", banks=None, *, seed=None, perm=None, shifts=None, wide=false))]
    fn new(
        kind: &str,
        banks: Option<u32>,
        seed: Option<u64>,
        perm: Option<Vec<u64>>,
        shifts: Option<Vec<u64>>,
        wide: bool,
    ) -> PyResult<Self> {
        let rap_kind = match kind {
            "rap" | "raw" => RapKind::Rap,
            "ras" => RapKind::Ras,
            "3p" => RapKind::ThreeP,
            _ => {
                return Err(refuse(format!(
                    "--kind {kind}: allowed rap, ras, 3p (or raw)"
                )))
            }
        };
        if kind == "raw" && (seed.is_some() || perm.is_some() || shifts.is_some() || wide) {
            return Err(refuse(
                "--kind raw: a row-major layout has no tables: seed, perm, shifts and wide are \
                 for rap, ras and 3p",
            ));
        }
        let request = TableRequest {
            kind: rap_kind,
            banks,
            rap_seed: seed,
            perm: texts(perm),
            shifts: texts(shifts),
            wide,
        };
        // A raw layout's `w` is checked as `rtl-gen rap` checks RAP's.
        let design = request
            .design(false, false)
            .map_err(|e| refuse_flags(e, RAP_FLAGS))?;
        if kind == "raw" {
            return Ok(Self {
                map: ConverterMap::Matrix(ShiftLayout::raw(design.w())),
                kind: "raw",
                seed: None,
                wide: false,
            });
        }
        let config = design.config();
        Ok(Self {
            map: design.map().clone(),
            kind: design.kind_name(),
            seed: config.seed,
            wide: config.wide,
        })
    }

    /// ``raw``, ``ras``, ``rap`` or ``3p``.
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind
    }

    /// ``w``: the banks, the threads of a warp and the extent of every index.
    #[getter]
    fn w(&self) -> u32 {
        self.map.w()
    }

    /// Indices of an element: 2 (``row``, ``col``) or 4 for 3P (``i``, ``j``, ``k``, ``l``).
    #[getter]
    fn dims(&self) -> u32 {
        match self.map {
            ConverterMap::Matrix(_) => 2,
            ConverterMap::ThreeP(_) => 4,
        }
    }

    /// The seed the tables were drawn from (``None`` when given, or for ``raw``).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Whether the RAP permutation keeps 8-byte words conflict-free too.
    #[getter]
    fn wide(&self) -> bool {
        self.wide
    }

    /// The tables, as the manifest of ``rtl-gen rap`` records them: ``{"shift": [...]}`` (one
    /// shift per row) or, for 3P, ``{"r": [...], "s": [...], "t": [...]}``.
    #[getter]
    fn tables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, table) in self.table_names().iter().zip(self.map.tables()) {
            d.set_item(name, table.to_vec())?;
        }
        Ok(d)
    }

    /// Each table packed into 32-bit words as the paper's Fig. 7 packs it (``floor(32 /
    /// ceil(log2 w))`` shifts a word): the words a packed converter's register file is written
    /// with and ``rtl-gen cuda layout`` emits. Same keys as :attr:`tables`.
    fn packed_words<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, table) in self.table_names().iter().zip(self.map.tables()) {
            d.set_item(name, pack(table))?;
        }
        Ok(d)
    }

    /// The bank of each element: ``layout.bank(row, col)`` (3P: ``bank(i, j, k, l)``), each
    /// index an int or an array (broadcast together, NumPy's rules), each below ``w``. Ints in,
    /// an int out; else a ``uint64`` array of the broadcast shape.
    #[pyo3(signature = (*index))]
    fn bank<'py>(
        &self,
        py: Python<'py>,
        index: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let b = self.indices(py, &index)?;
        b.map(py, |x| u64::from(self.convert(x).1))
    }

    /// The address of each element (arguments as for :meth:`bank`): ``row * w + bank``, for 3P
    /// ``((i * w + j) * w + k) * w + bank``.
    #[pyo3(signature = (*index))]
    fn address<'py>(
        &self,
        py: Python<'py>,
        index: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let b = self.indices(py, &index)?;
        b.map(py, |x| self.convert(x).0)
    }

    /// The DMM congestion of warp accesses under this layout (the most distinct elements one
    /// bank receives): the indices as for :meth:`bank`, broadcast to one warp access (1-D: an
    /// int back) or one a row (2-D: a ``uint32`` array back).
    #[pyo3(signature = (*index))]
    fn congestion<'py>(
        &self,
        py: Python<'py>,
        index: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let addresses = self.address(py, index)?;
        let w = u64::from(self.map.w());
        let warps = Warps::read(&addresses, None, "index", MAX_THREADS)?;
        warps.map_full(py, "every thread takes part", |a| congestion(a, |x| x % w))
    }

    fn __repr__(&self) -> String {
        let tables: Vec<String> = self
            .table_names()
            .iter()
            .zip(self.map.tables())
            .map(|(n, t)| format!("{n}={t:?}"))
            .collect();
        format!(
            "RapLayout(kind='{}', w={}, {})",
            self.kind,
            self.map.w(),
            tables.join(", ")
        )
    }
}

impl RapLayout {
    fn table_names(&self) -> &'static [&'static str] {
        match self.map {
            ConverterMap::Matrix(_) => &["shift"],
            ConverterMap::ThreeP(_) => &["r", "s", "t"],
        }
    }

    /// `(address, bank)` of an element whose indices (2, or 4 for 3P) are checked below `w`;
    /// converted on the stack, as this runs once per element.
    fn convert(&self, index: &[u64]) -> (u64, u32) {
        let mut small = [0u32; 4];
        for (s, &x) in small.iter_mut().zip(index) {
            *s = x as u32;
        }
        self.map.convert(&small[..index.len()])
    }

    /// The index arguments, one per dimension, broadcast and checked below `w`.
    fn indices<'py>(
        &self,
        py: Python<'py>,
        index: &[Bound<'py, PyAny>],
    ) -> PyResult<Broadcast<'py>> {
        let names: &[&str] = match self.map {
            ConverterMap::Matrix(_) => &["row", "col"],
            ConverterMap::ThreeP(_) => &["i", "j", "k", "l"],
        };
        if index.len() != names.len() {
            return Err(refuse(format!(
                "{} indices given: a {} layout takes {} ({})",
                index.len(),
                self.kind,
                names.len(),
                names.join(", ")
            )));
        }
        let b = Broadcast::read(index, names)?;
        b.check_below(py, u64::from(self.map.w()))?;
        Ok(b)
    }
}

/// One cell of a congestion table: its array, scheme and pattern, and how many trials had each
/// congestion.
#[pyclass(module = "rtl_gen", frozen, get_all)]
pub struct CongestionCell {
    /// 2 (a ``w x w`` matrix) or 4 (a ``w^4`` array).
    dims: u32,
    /// Banks, threads per warp and matrix width.
    w: u32,
    /// ``raw``, ``ras``, ``rap``, ``1p``, ``r1p``, ``3p``, ``w2p`` or ``1pw2r``.
    scheme: String,
    /// The warp access, as spelled for ``dims``.
    pattern: String,
    /// Trials run.
    trials: u64,
    /// The run's seed.
    seed: u64,
    /// Mean congestion over the trials.
    mean: f64,
    /// The largest congestion of any trial.
    max: u32,
    /// The smallest congestion of any trial.
    min: u32,
    /// ``histogram[c]``: the trials with congestion ``c`` (``0..=w``), a ``uint64`` array.
    histogram: Py<PyArray1<u64>>,
    /// The paper's Table II value of this cell, ``None`` where the table has none.
    paper: Option<f64>,
}

#[pymethods]
impl CongestionCell {
    fn __repr__(&self) -> String {
        format!(
            "CongestionCell(dims={}, w={}, scheme='{}', pattern='{}', trials={}, mean={:.4}, max={}, min={})",
            self.dims, self.w, self.scheme, self.pattern, self.trials, self.mean, self.max, self.min
        )
    }
}

/// The results of :func:`simulate_congestion`: one :class:`CongestionCell` per cell, and the
/// reports of ``rtl-gen congestion``.
#[pyclass(module = "rtl_gen", frozen)]
pub struct CongestionTable {
    results: Vec<CellResult>,
}

#[pymethods]
impl CongestionTable {
    /// The cells, in the order of the run (scheme, then pattern, then ``w``).
    #[getter]
    fn cells(&self, py: Python<'_>) -> Vec<CongestionCell> {
        self.results
            .iter()
            .map(|r| {
                let record = r.record();
                CongestionCell {
                    dims: record.dims,
                    w: record.w,
                    scheme: record.scheme,
                    pattern: record.pattern,
                    trials: record.trials,
                    seed: record.seed,
                    mean: record.mean,
                    max: record.max,
                    min: record.min,
                    histogram: PyArray1::from_slice(py, &r.histogram).unbind(),
                    paper: (record.dims == 2)
                        .then(|| paper::table_ii(r.cell.scheme, r.cell.pattern, record.w))
                        .flatten(),
                }
            })
            .collect()
    }

    /// The text table ``rtl-gen congestion`` prints (one block per scheme, patterns down, ``w``
    /// across); with ``compare_paper``, the paper's Table II value beside each cell and the line
    /// that sums up the agreement, as ``--compare-paper`` prints them.
    #[pyo3(signature = (compare_paper=false))]
    fn table(&self, compare_paper: bool) -> String {
        let mut text = report::table(&self.results, compare_paper);
        if compare_paper {
            let (compared, within, worst, at) = report::paper_agreement(&self.results, 0.03);
            if compared > 0 {
                text.push_str(&format!(
                    "{within} of {compared} cells within 0.03 of the paper's Table II; largest difference {worst:.4} ({at})\n"
                ));
            }
        }
        text
    }

    /// The document ``rtl-gen congestion --json`` prints (``format_version`` and ``cells``).
    fn to_json(&self) -> String {
        report::json_document(&self.results)
    }

    /// The SVG plot ``rtl-gen congestion --plot`` draws: mean congestion against ``w``.
    fn plot_svg(&self) -> String {
        rtl_gen::output::ownership::sign_svg(&report::plot(&self.results))
    }

    fn __str__(&self) -> String {
        self.table(false)
    }

    fn __len__(&self) -> usize {
        self.results.len()
    }
}

/// Runs the Monte Carlo congestion simulator of the RAP paper's Tables II and IV, as
/// ``rtl-gen congestion`` does with the same arguments (the same cells, the same numbers drawn,
/// the same results, whatever the thread count): each trial draws a scheme's random layout and
/// one warp of a pattern and counts the warp's DMM congestion.
///
/// ``dims``: 2 (a ``w x w`` matrix, Table II) or 4 (a ``w^4`` array, section VII, Table IV);
/// ``banks``: the widths ``w`` (an int or a list; default 16 to 256 for 2, 32 for 4);
/// ``kinds``: the schemes (``raw``, ``ras``, ``rap``; for 4 also ``1p``, ``r1p``, ``3p``,
/// ``w2p``, ``1pw2r``); ``patterns``: the warp accesses (``contiguous``, ``stride``,
/// ``diagonal``, ``random``, ``malicious``; for 4 ``stride1`` to ``stride3`` instead of
/// ``stride`` and no ``diagonal``); a list or a comma-separated string, default the paper's
/// table. Runs on every core with the GIL released; a run of more than about 10 minutes is
/// refused before it starts, as the CLI refuses it.
#[pyfunction]
#[pyo3(signature = (dims=2, banks=None, kinds=None, patterns=None, trials=100_000, seed=1))]
pub fn simulate_congestion(
    py: Python<'_>,
    dims: u32,
    banks: Option<&Bound<'_, PyAny>>,
    kinds: Option<&Bound<'_, PyAny>>,
    patterns: Option<&Bound<'_, PyAny>>,
    trials: u64,
    seed: u64,
) -> PyResult<CongestionTable> {
    if dims != 2 && dims != 4 {
        return Err(refuse(format!("--dims {dims}: allowed 2 or 4")));
    }
    let banks: Option<Vec<u32>> = match banks {
        None => None,
        Some(b) => Some(match b.extract::<u32>() {
            Ok(w) => vec![w],
            Err(_) => b.extract()?,
        }),
    };
    let kinds: Option<Vec<Scheme>> = match kinds {
        None => None,
        Some(k) => Some(
            name_list(k)?
                .iter()
                .map(|n| n.parse::<Scheme>().map_err(refuse))
                .collect::<PyResult<_>>()?,
        ),
    };
    let patterns = patterns.map(name_list).transpose()?;
    let cells = report::cells(
        dims,
        banks.as_deref(),
        kinds.as_deref(),
        patterns.as_deref(),
    )
    .map_err(|e| refuse_flags(e, CONGESTION_FLAGS))?;
    rtl_gen::limits::check_congestion_run(trials, dims, &cells)
        .map_err(|e| refuse_flags(e, CONGESTION_FLAGS))?;
    let results = py.detach(|| simulate(&cells, trials, seed, &|_| {}));
    Ok(CongestionTable { results })
}
