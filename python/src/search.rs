//! The configuration search on a trace from Python (what `rtl-gen search` does): the best
//! configuration of each hash family for a kernel's warp accesses, run by the models' search
//! with the GIL released, refused before it starts where the CLI refuses it.

use crate::array::name_list;
use crate::error::{refuse, refuse_flags};
use crate::hash::{kind as hash_kind, Hasher};
use models::search::{best, Found, Heuristic, Report};
use models::{Geometry, HashKind};
use pyo3::prelude::*;
use rtl_gen::hash::search::{check_space, plan_for, SearchSizeFlag};
use rtl_gen::hash::search_report;

/// The flags of `rtl-gen search` that `search`'s parameters are.
const FLAGS: &[&str] = &[
    "--addr-bits",
    "--banks",
    "--kinds",
    "--heuristic",
    "--warp-size",
];

/// One family's best configuration under one heuristic.
#[pyclass(module = "rtl_gen", frozen, get_all)]
pub struct SearchResult {
    /// The hash family.
    kind: &'static str,
    /// The heuristic that found it.
    heuristic: &'static str,
    /// The configuration found.
    hasher: Hasher,
    /// Replays over the trace: the sum over warp accesses of ``congestion - 1``.
    replays: u64,
    /// Mean congestion per warp access.
    mean_congestion: f64,
    /// Percentage of modulo's replays removed (100 where modulo has none).
    removed_percent: f64,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(kind='{}', heuristic='{}', replays={}, mean_congestion={:.3}, removed_percent={:.1})",
            self.kind, self.heuristic, self.replays, self.mean_congestion, self.removed_percent
        )
    }
}

/// What a search of one trace found: every family's configuration under every heuristic run,
/// the trace's cost under modulo and its lower bound, and the reports ``rtl-gen search``
/// prints.
#[pyclass(module = "rtl_gen", frozen)]
pub struct SearchReport {
    name: String,
    report: Report,
}

impl SearchReport {
    fn result(&self, f: &Found) -> SearchResult {
        let cost = &f.candidate.cost;
        SearchResult {
            kind: f.kind().name(),
            heuristic: f.heuristic.name(),
            hasher: Hasher {
                config: f.candidate.config.clone(),
            },
            replays: cost.replays,
            mean_congestion: cost.mean_congestion(),
            removed_percent: cost.removed_percent(&self.report.before),
        }
    }
}

#[pymethods]
impl SearchReport {
    /// The trace's name (a file's stem, else ``trace``).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// One :class:`SearchResult` per family and heuristic run, in the CLI's order.
    #[getter]
    fn results(&self) -> Vec<SearchResult> {
        self.report.found.iter().map(|f| self.result(f)).collect()
    }

    /// The result with the fewest replays (``best.json`` of ``rtl-gen search``).
    #[getter]
    fn best(&self) -> Option<SearchResult> {
        best(&self.report.found).map(|f| self.result(f))
    }

    /// Warp accesses in the trace.
    #[getter]
    fn warp_accesses(&self) -> u64 {
        self.report.workload.accesses()
    }

    /// Distinct warp accesses (address sets) in the trace.
    #[getter]
    fn distinct_accesses(&self) -> usize {
        self.report.workload.sets().len()
    }

    /// ``(replays, mean congestion)`` under modulo, the baseline.
    #[getter]
    fn before(&self) -> (u64, f64) {
        let c = &self.report.before;
        (c.replays, c.mean_congestion())
    }

    /// ``(replays, mean congestion)`` no hash can beat: a set of ``d`` distinct addresses needs
    /// ``ceil(d / banks)`` bank cycles.
    #[getter]
    fn lower_bound(&self) -> (u64, f64) {
        let c = &self.report.lower_bound;
        (c.replays, c.mean_congestion())
    }

    /// The report as ``rtl-gen search --json`` prints it (one trace).
    fn to_json(&self) -> String {
        let json = search_report::json(&self.name, &self.report);
        serde_json::to_string_pretty(&json).unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// The text report ``rtl-gen search`` prints (without its ``files:`` line).
    fn __str__(&self) -> String {
        search_report::text(&self.name, &self.report)
    }
}

/// Searches the best configuration of each hash family for a kernel's warp accesses, as
/// ``rtl-gen search`` does (the same plan, results and refusals; no files written).
///
/// ``trace``: trace text (docs/TRACE_FORMAT.md), a path (``pathlib.Path``) to a trace file, or
/// an array of word addresses, one warp access a row; ``addr_bits``: word-address bits ``n``;
/// ``banks``: a power of two; ``kinds``: ``"all"`` or families (a list or a comma-separated
/// string); ``heuristic``: ``"all"``, ``exhaustive``, ``fixed``, ``givargis``, ``mih`` or
/// ``gf2``; ``warp_size``: the most addresses one warp access may hold. A search space too
/// large for about a minute is refused before it starts, with the CLI's line. Runs with the
/// GIL released.
#[pyfunction]
#[pyo3(signature = (trace, addr_bits=14, banks=32, kinds=None, heuristic="all", warp_size=32))]
pub fn search(
    py: Python<'_>,
    trace: &Bound<'_, PyAny>,
    addr_bits: u32,
    banks: u64,
    kinds: Option<&Bound<'_, PyAny>>,
    heuristic: &str,
    warp_size: usize,
) -> PyResult<SearchReport> {
    let geometry = Geometry::new(addr_bits, banks).map_err(|e| refuse_flags(e, FLAGS))?;
    if warp_size == 0 {
        return Err(refuse("--warp-size 0: at least one thread"));
    }
    let kinds: Vec<HashKind> = match kinds.map(name_list).transpose()? {
        None => HashKind::ALL.to_vec(),
        Some(list) if list.iter().any(|k| k == "all") => HashKind::ALL.to_vec(),
        Some(list) => {
            let mut out: Vec<HashKind> = Vec::new();
            for name in list {
                let k = hash_kind(&name)?;
                if !out.contains(&k) {
                    out.push(k);
                }
            }
            out
        }
    };
    let heuristic = match heuristic {
        "all" => None,
        name => Some(
            name.parse::<Heuristic>()
                .map_err(|e| refuse_flags(e, FLAGS))?,
        ),
    };
    let plan = plan_for(&kinds, heuristic).map_err(|e| refuse_flags(e, FLAGS))?;
    let (name, trace) = crate::trace::read(trace, addr_bits, warp_size)?;
    let traces = [(name, trace)];
    check_space(
        &traces,
        geometry,
        &plan,
        &SearchSizeFlag::addr_bits(addr_bits),
    )
    .map_err(|e| refuse_flags(e, FLAGS))?;
    let [(name, trace)] = traces;
    let report = py.detach(|| models::search::search(&trace, geometry, &plan));
    Ok(SearchReport { name, report })
}
