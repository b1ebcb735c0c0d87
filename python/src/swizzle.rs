//! CuTe, TMA and Triton swizzles from Python: `Layout` (any form `rtl-gen swizzle` imports, its
//! matrix, every exact form, `show`), the wavefronts of access patterns under it (`check`), the
//! best XOR layout (`best_layout`), and both in one call (`check_layout`), for a notebook.

use crate::array::map_u64;
use crate::error::refuse;
use crate::hash::Hasher;
use models::swizzle::export::{bank_of_element, forms, hash_config, Family};
use models::swizzle::search::{best_layout as search_best, SearchResult};
use models::swizzle::wavefront::{physical, set_cost, warp_wavefronts, Instruction};
use models::swizzle::{
    AccessKind, AccessSet, AddressMap, Layout as Form, SetCost, Tile, TileShape,
};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use rtl_gen::swizzle::{self as report, access_sets, check_whole, parse_layout};

/// A layout of a tile in shared memory: where each byte of the row-major tile lies, as an
/// invertible GF(2) matrix on the byte-offset bits.
///
/// ``Layout("cute:Swizzle<3,4,3>", tile="64x64", elem_bytes=2)`` takes every form
/// ``rtl-gen swizzle --layout`` takes: ``none``, ``cute:Swizzle<B,M,S>``,
/// ``cute-elem:Swizzle<B,M,S>``, ``tma:32B|64B|128B``,
/// ``triton:swizzled_shared<vec=V,perPhase=P,maxPhase=M,order=1,0>``,
/// ``triton:linear<offset=[[r,c],...]>``, ``matrix:ROW,...``, ``config:FILE``; or a
/// :class:`Hasher` over element offsets. ``tile`` is ``"ROWSxCOLS"`` or ``(rows, cols)``.
#[pyclass(module = "rtl_gen", frozen)]
#[derive(Clone)]
pub struct Layout {
    /// The layout as given (or the most specific form of a found one).
    text: String,
    tile: Tile,
    map: AddressMap,
}

/// The text of a tile given as `"ROWSxCOLS"` or `(rows, cols)`.
fn tile_text(tile: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = tile.cast::<PyString>() {
        Ok(s.to_string())
    } else if let Ok(t) = tile.cast::<PyTuple>() {
        let (rows, cols): (u64, u64) = t.extract()?;
        Ok(format!("{rows}x{cols}"))
    } else {
        Err(refuse(format!(
            "tile: {tile}: give \"ROWSxCOLS\" or (rows, cols)"
        )))
    }
}

/// The tile `tile` (a string or a pair; 64x64 when `None`) of `elem_bytes`-byte elements, refused as `--tile`.
fn tile(tile: Option<&Bound<'_, PyAny>>, elem_bytes: u32) -> PyResult<Tile> {
    let text = if let Some(tile) = tile {
        tile_text(tile)?
    } else {
        "64x64".to_string()
    };
    // The CLI reads the shape with clap, which words the refusal so.
    let shape: TileShape = text
        .parse()
        .map_err(|m: String| refuse(format!("invalid value '{text}' for '--tile <TILE>': {m}")))?;
    if !models::swizzle::tile::ELEM_BYTES.contains(&elem_bytes) {
        return Err(refuse(format!(
            "--elem-bytes {elem_bytes}: allowed 1, 2, 4, 8 or 16"
        )));
    }
    Tile::new(shape, elem_bytes).map_err(|m| {
        refuse(rtl_gen::Error::BadFlag {
            flag: "--tile",
            value: text,
            message: m,
        })
    })
}

impl Layout {
    /// A layout of `map` on `tile`, named by its most specific exact form.
    fn found(map: AddressMap, tile: Tile) -> Self {
        let text = forms(&map, &tile)
            .first()
            .map_or_else(|| "matrix".into(), Form::to_string);
        Self { text, tile, map }
    }
}

/// The access sets of `access` (names, or a comma-separated string) at each of `vec_bytes`,
/// and of `trace` (trace text, or an array of logical element offsets, one warp access a row).
fn sets(
    tile: &Tile,
    access: Option<&Bound<'_, PyAny>>,
    vec_bytes: Option<&Bound<'_, PyAny>>,
    trace: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<AccessSet>> {
    let names: Vec<String> = match access {
        None => vec!["rows".into(), "cols".into()],
        Some(a) => crate::array::name_list(a)?,
    };
    let kinds = names
        .iter()
        .map(|n| match n.as_str() {
            "rows" => Ok(AccessKind::Rows),
            "cols" => Ok(AccessKind::Cols),
            "ldmatrix" => Ok(AccessKind::Ldmatrix),
            other => Err(refuse(format!(
                "--access {other}: allowed rows, cols or ldmatrix"
            ))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    let widths: Vec<u32> = match vec_bytes {
        None => vec![16],
        Some(v) => match v.extract::<u32>() {
            Ok(w) => vec![w],
            Err(_) => v.extract()?,
        },
    };
    if let Some(w) = widths.iter().find(|w| ![4, 8, 16].contains(*w)) {
        return Err(refuse(format!("--vec-bytes {w}: allowed 4, 8 or 16")));
    }
    let traces = match trace {
        None => vec![],
        Some(t) => vec![(
            "trace".to_string(),
            crate::trace::read(t, tile.element_bits(), 32)?.1,
        )],
    };
    access_sets(&kinds, &widths, &traces, tile).map_err(refuse)
}

/// One access set's wavefronts under a layout: the totals of ``rtl-gen swizzle check`` and
/// each warp access's own.
#[pyclass(module = "rtl_gen", frozen, get_all)]
pub struct AccessCost {
    /// ``rows@16``, ``cols@4``, ``ldmatrix``, ``trace@8``.
    name: String,
    /// Bytes each thread moves.
    width: u32,
    /// Warp accesses.
    warps: u64,
    /// Wavefronts of the loads (``ldmatrix``'s for ``ldmatrix``), all warp accesses.
    load_wavefronts: u64,
    /// Wavefronts of the stores (0 for ``ldmatrix``).
    store_wavefronts: u64,
    /// The fewest the loads could take under any layout.
    ideal_load: u64,
    /// The fewest the stores could take.
    ideal_store: u64,
    /// The most one warp access's load takes.
    worst_load: u32,
    /// Whether every warp access takes its ideal.
    conflict_free: bool,
    /// Each warp access's load (or ``ldmatrix``) wavefronts, a ``uint32`` array.
    load_per_warp: Py<PyArray1<u32>>,
    /// Each warp access's store wavefronts (zeros for ``ldmatrix``).
    store_per_warp: Py<PyArray1<u32>>,
}

#[pymethods]
impl AccessCost {
    fn __repr__(&self) -> String {
        format!(
            "AccessCost(name='{}', warps={}, load_wavefronts={}, store_wavefronts={}, ideal_load={}, ideal_store={}, conflict_free={})",
            self.name,
            self.warps,
            self.load_wavefronts,
            self.store_wavefronts,
            self.ideal_load,
            self.ideal_store,
            if self.conflict_free { "True" } else { "False" }
        )
    }
}

/// The cost of `set` under `map`, with each warp access's wavefronts.
fn access_cost(py: Python<'_>, set: &AccessSet, cost: &SetCost, map: &AddressMap) -> AccessCost {
    let (load_op, store) = if set.is_ldmatrix() {
        (Instruction::Ldmatrix, false)
    } else {
        (Instruction::Load, true)
    };
    let per_warp = |op: Option<Instruction>| -> Vec<u32> {
        set.warps
            .iter()
            .map(|w| {
                op.map_or(0, |op| {
                    warp_wavefronts(&physical(map, w, set.width), set.width, op)
                })
            })
            .collect()
    };
    AccessCost {
        name: set.name(),
        width: set.width,
        warps: cost.warps,
        load_wavefronts: cost.load,
        store_wavefronts: cost.store,
        ideal_load: cost.ideal_load,
        ideal_store: cost.ideal_store,
        worst_load: cost.worst_load,
        conflict_free: cost.excess() == 0,
        load_per_warp: PyArray1::from_vec(py, per_warp(Some(load_op))).unbind(),
        store_per_warp: PyArray1::from_vec(py, per_warp(store.then_some(Instruction::Store)))
            .unbind(),
    }
}

/// The wavefronts of every access set under a layout (``rtl-gen swizzle check``).
#[pyclass(module = "rtl_gen", frozen, get_all)]
pub struct LayoutCheck {
    /// The layout checked.
    layout: Py<Layout>,
    /// One entry per access set, in the order asked.
    accesses: Vec<Py<AccessCost>>,
    /// Wavefronts of every load and store.
    total_wavefronts: u64,
    /// The fewest any layout could take.
    ideal_wavefronts: u64,
    /// Whether every access set takes its ideal.
    conflict_free: bool,
    /// The report ``rtl-gen swizzle check`` prints.
    text: String,
}

#[pymethods]
impl LayoutCheck {
    fn __str__(&self) -> String {
        self.text.clone()
    }
}

/// The layout with the fewest wavefronts (``rtl-gen swizzle best``) and why no better exists.
#[pyclass(module = "rtl_gen", frozen, get_all)]
pub struct BestLayout {
    /// The layout found, named by its most specific exact form.
    layout: Py<Layout>,
    /// Its wavefronts, one entry per access set.
    accesses: Vec<Py<AccessCost>>,
    /// Its wavefronts in all.
    total_wavefronts: u64,
    /// What a conflict-free layout would take.
    ideal_wavefronts: u64,
    /// The fewest any layout keeping the vectors whole can take.
    lower_bound_wavefronts: u64,
    /// Whether the layout found reaches the lower bound.
    optimal: bool,
    /// ``conflict-free``, ``impossible-counting``, ``impossible-rank`` or ``unproven``.
    verdict: String,
    /// The verdict in words, as ``rtl-gen swizzle best`` prints it.
    verdict_text: String,
    /// Layouts scored.
    layouts_scored: usize,
    /// The report ``rtl-gen swizzle best`` prints.
    text: String,
}

#[pymethods]
impl BestLayout {
    fn __str__(&self) -> String {
        self.text.clone()
    }
}

/// A layout checked and the best layout for the same accesses (:func:`check_layout`).
#[pyclass(module = "rtl_gen", frozen, get_all)]
pub struct LayoutReport {
    /// The given layout's wavefronts.
    check: Py<LayoutCheck>,
    /// The best XOR layout for the same accesses.
    best: Py<BestLayout>,
}

#[pymethods]
impl LayoutReport {
    fn __str__(&self) -> String {
        format!(
            "{}best layout for the same accesses:\n{}",
            self.check.get().text,
            self.best.get().text
        )
    }
}

/// The family preferred among equally good layouts.
fn prefer(name: &str) -> PyResult<Family> {
    match name {
        "cute" => Ok(Family::Cute),
        "tma" => Ok(Family::Tma),
        "triton" => Ok(Family::Triton),
        "any" => Ok(Family::RowMajor),
        other => Err(refuse(format!(
            "--prefer {other}: allowed cute, tma, triton or any"
        ))),
    }
}

impl Layout {
    fn check_sets(&self, py: Python<'_>, sets: &[AccessSet]) -> PyResult<LayoutCheck> {
        check_whole(&self.map, &self.text, sets).map_err(refuse)?;
        let map = &self.map;
        let costs: Vec<SetCost> = py.detach(|| sets.iter().map(|s| set_cost(s, map)).collect());
        let (total, ideal) = costs.iter().fold((0, 0), |(t, i), c| {
            (t + c.load + c.store, i + c.ideal_load + c.ideal_store)
        });
        let accesses = sets
            .iter()
            .zip(&costs)
            .map(|(s, c)| Py::new(py, access_cost(py, s, c, map)))
            .collect::<PyResult<_>>()?;
        Ok(LayoutCheck {
            layout: Py::new(py, self.clone())?,
            accesses,
            total_wavefronts: total,
            ideal_wavefronts: ideal,
            conflict_free: total == ideal,
            text: format!(
                "{}{}",
                report::layout_text(map, &self.tile),
                report::access_text(sets, &costs)
            ),
        })
    }
}

/// The search of `rtl-gen swizzle best` on `sets`.
fn best_of(
    py: Python<'_>,
    tile: &Tile,
    sets: &[AccessSet],
    prefer: Family,
) -> PyResult<BestLayout> {
    let r: SearchResult = py.detach(|| search_best(tile, sets, prefer));
    let map = &r.best.map;
    let accesses = sets
        .iter()
        .zip(&r.best.costs)
        .map(|(s, c)| Py::new(py, access_cost(py, s, c, map)))
        .collect::<PyResult<_>>()?;
    let verdict = report::verdict_json(&r)["kind"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let preferred = r
        .best
        .forms
        .iter()
        .find(|f| Family::of(f) == prefer)
        .map_or_else(String::new, |f| format!("preferred form: {f}\n"));
    let text = format!(
        "best of {} layouts scored (every vector kept whole: {}-byte chunks move together)\n{}{preferred}{}{}",
        r.considered,
        r.chunk_bytes,
        report::layout_text(map, tile),
        report::access_text(sets, &r.best.costs),
        report::verdict_text(&r)
    );
    Ok(BestLayout {
        layout: Py::new(py, Layout::found(map.clone(), *tile))?,
        accesses,
        total_wavefronts: r.best.total(),
        ideal_wavefronts: r.ideal,
        lower_bound_wavefronts: r.lower_bound,
        optimal: r.best.total() == r.lower_bound,
        verdict,
        verdict_text: report::verdict_text(&r),
        layouts_scored: r.considered,
        text,
    })
}

#[pymethods]
impl Layout {
    #[new]
    #[pyo3(signature = (layout, *, tile=None, elem_bytes=2))]
    fn new(
        layout: &Bound<'_, PyAny>,
        tile: Option<Bound<'_, PyAny>>,
        elem_bytes: u32,
    ) -> PyResult<Self> {
        let tile = self::tile(tile.as_ref(), elem_bytes)?;
        if let Ok(h) = layout.cast::<Hasher>() {
            let form = Form::Hash(h.get().config.clone());
            let map = form.to_map(&tile).map_err(|e| {
                refuse(rtl_gen::Error::BadFlag {
                    flag: "--layout",
                    value: "config".into(),
                    message: e.message,
                })
            })?;
            return Ok(Self::found(map, tile));
        }
        let text: String = layout.extract()?;
        let (_, map) = parse_layout(&text, &tile).map_err(refuse)?;
        Ok(Self { text, tile, map })
    }

    /// The layout as given.
    fn __repr__(&self) -> String {
        format!(
            "Layout('{}', tile='{}', elem_bytes={})",
            self.text,
            self.tile.shape(),
            self.tile.elem_bytes()
        )
    }

    /// ``(rows, cols)`` of the tile, in elements.
    #[getter]
    fn tile(&self) -> (u64, u64) {
        (self.tile.rows(), self.tile.cols())
    }

    /// Bytes per element.
    #[getter]
    fn elem_bytes(&self) -> u32 {
        self.tile.elem_bytes()
    }

    /// Every exact form of the layout, most specific first (``tma:128B``,
    /// ``cute-elem:Swizzle<3,3,3>``, ``cute:Swizzle<3,4,3>``, ``triton:...``, the matrix).
    #[getter]
    fn forms(&self) -> Vec<String> {
        forms(&self.map, &self.tile)
            .iter()
            .map(Form::to_string)
            .collect()
    }

    /// The most specific family: ``row-major``, ``tma``, ``cute``, ``triton`` or ``matrix``.
    #[getter]
    fn family(&self) -> &'static str {
        let all = forms(&self.map, &self.tile);
        report::family_name(all.iter().map(Family::of).min().unwrap_or(Family::Matrix))
    }

    /// Row ``i``: the logical byte-offset bits XORed into physical bit ``i``.
    #[getter]
    fn matrix(&self) -> Vec<u64> {
        self.map.rows()
    }

    /// The bytes the layout keeps together (the widest vector it serves whole).
    #[getter]
    fn keeps_bytes(&self) -> u64 {
        self.map.contiguous_bytes()
    }

    /// The same banks as a hash over element offsets (``rtl-gen hash --config`` builds it).
    #[getter]
    fn hasher(&self) -> Hasher {
        Hasher {
            config: hash_config(&self.map, &self.tile),
        }
    }

    /// The physical byte offset of each logical byte offset (row-major in the tile).
    fn physical<'py>(&self, offsets: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let bytes = self.tile.bytes();
        check_below(offsets, "offsets", bytes, "bytes")?;
        let map = &self.map;
        map_u64(offsets, "offsets", |x| map.apply(x))
    }

    /// The bank of each element (a row-major element index; 4-byte banks, or the bank group of
    /// an element wider than a bank).
    fn bank<'py>(&self, elements: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        check_below(elements, "elements", self.tile.elements(), "elements")?;
        let (map, tile) = (&self.map, &self.tile);
        map_u64(elements, "elements", |e| bank_of_element(map, tile, e))
    }

    /// The layout as ``rtl-gen swizzle show`` prints it: the forms, the matrix, the hash
    /// configuration and the banks of the first rows.
    fn show(&self) -> String {
        format!(
            "{}{}",
            report::layout_text(&self.map, &self.tile),
            report::grid_text(&self.map, &self.tile)
        )
    }

    /// The wavefronts an H100 takes for each access set under this layout (``rtl-gen swizzle
    /// check``): ``access`` names ``rows``, ``cols``, ``ldmatrix`` (a list or
    /// ``"rows,cols"``), each scored at every ``vec_bytes`` (4, 8, 16; ``ldmatrix`` at 16);
    /// ``trace`` adds a pattern of your own: trace text or an array of logical element
    /// offsets, one warp access a row.
    #[pyo3(signature = (access=None, vec_bytes=None, trace=None))]
    fn check(
        &self,
        py: Python<'_>,
        access: Option<Bound<'_, PyAny>>,
        vec_bytes: Option<Bound<'_, PyAny>>,
        trace: Option<Bound<'_, PyAny>>,
    ) -> PyResult<LayoutCheck> {
        let sets = sets(
            &self.tile,
            access.as_ref(),
            vec_bytes.as_ref(),
            trace.as_ref(),
        )?;
        self.check_sets(py, &sets)
    }
}

/// Refuses a value of `obj` at or above `limit` (`unit`s of the tile).
fn check_below(obj: &Bound<'_, PyAny>, name: &str, limit: u64, unit: &str) -> PyResult<()> {
    let array = crate::array::u64_array(obj, name)?;
    let array = array.readonly();
    if let Some(x) = array.as_slice()?.iter().find(|&&x| x >= limit) {
        return Err(refuse(format!(
            "{name}: {x} is outside the tile's {limit} {unit}"
        )));
    }
    Ok(())
}

/// The layout with the fewest wavefronts for the access sets (``rtl-gen swizzle best``): the
/// GF(2) search against every TMA mode, CuTe swizzle and Triton layout that fits, with its
/// verdict (conflict-free, or proven impossible by counting or by rank, or unproven). Arguments
/// as :meth:`Layout.check`; ``prefer`` (``cute``, ``tma``, ``triton``, ``any``) breaks ties.
#[pyfunction]
#[pyo3(signature = (*, tile=None, elem_bytes=2, access=None, vec_bytes=None, trace=None, prefer="cute"))]
pub fn best_layout(
    py: Python<'_>,
    tile: Option<Bound<'_, PyAny>>,
    elem_bytes: u32,
    access: Option<Bound<'_, PyAny>>,
    vec_bytes: Option<Bound<'_, PyAny>>,
    trace: Option<Bound<'_, PyAny>>,
    prefer: &str,
) -> PyResult<BestLayout> {
    let tile = self::tile(tile.as_ref(), elem_bytes)?;
    let prefer = self::prefer(prefer)?;
    let sets = sets(&tile, access.as_ref(), vec_bytes.as_ref(), trace.as_ref())?;
    best_of(py, &tile, &sets, prefer)
}

/// A layout's wavefronts for an access pattern and the best XOR layout for the same pattern, in
/// one call: ``check_layout("cute:Swizzle<3,4,3>", "rows,cols,ldmatrix", tile="64x64",
/// elem_bytes=2)``. ``layout`` is any form :class:`Layout` takes (or a :class:`Layout`);
/// the other arguments are those of :func:`best_layout`.
#[pyfunction]
#[pyo3(signature = (layout, access=None, *, tile=None, elem_bytes=2, vec_bytes=None, trace=None, prefer="cute"))]
#[allow(clippy::too_many_arguments)]
pub fn check_layout(
    py: Python<'_>,
    layout: Bound<'_, PyAny>,
    access: Option<Bound<'_, PyAny>>,
    tile: Option<Bound<'_, PyAny>>,
    elem_bytes: u32,
    vec_bytes: Option<Bound<'_, PyAny>>,
    trace: Option<Bound<'_, PyAny>>,
    prefer: &str,
) -> PyResult<LayoutReport> {
    let layout = match layout.cast::<Layout>() {
        Ok(l) => l.get().clone(),
        Err(_) => Layout::new(&layout, tile, elem_bytes)?,
    };
    let prefer = self::prefer(prefer)?;
    let sets = sets(
        &layout.tile,
        access.as_ref(),
        vec_bytes.as_ref(),
        trace.as_ref(),
    )?;
    let check = layout.check_sets(py, &sets)?;
    let best = best_of(py, &layout.tile, &sets, prefer)?;
    Ok(LayoutReport {
        check: Py::new(py, check)?,
        best: Py::new(py, best)?,
    })
}
