//! The Monte Carlo congestion simulator behind the paper's Tables II and IV.
//!
//! A *cell* is one array shape, scheme and access pattern. A *trial* draws the scheme's random
//! layout and one warp of the pattern, and measures that warp's DMM congestion (the largest
//! number of distinct elements in one bank). Trial `t` of a run with seed `s` uses its own
//! generator ([`TrialRng`], derived from `(s, t)`), so a cell's result depends only on the cell,
//! the seed and the trial count: not on the number of threads, the chunking or the other cells
//! of the run. Trials run in parallel (rayon) and their congestions are summed exactly as a
//! histogram.

use super::access::{Element, Pattern};
use super::malicious::malicious_access;
use super::matrix::MatrixTrials;
use super::rng::{RunStreams, TrialRng, MAX_TRIALS};
use super::sampler::{below, Sampler};
use super::scheme::{Row, Scheme, Shape};
use crate::Error;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Trials per unit of parallel work (and per progress report).
pub const CHUNK: u64 = 2048;

/// One cell of a congestion table: shape, scheme and pattern, checked to go together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The array.
    pub shape: Shape,
    /// The layout.
    pub scheme: Scheme,
    /// The warp access.
    pub pattern: Pattern,
}

impl Cell {
    /// Validates the combination: the scheme and the pattern must exist for `dims`.
    pub fn new(dims: u32, w: u32, scheme: Scheme, pattern: Pattern) -> Result<Self, Error> {
        let shape = Shape::new(dims, w)?;
        if !scheme.supports(dims) {
            return Err(Error::OutOfRange {
                name: "scheme".into(),
                value: scheme.name().into(),
                allowed: if dims == 2 {
                    "raw, ras or rap for a w x w matrix (--dims 2)".into()
                } else {
                    "raw, ras, 1p, r1p, 3p, w2p or 1pw2r for a w^4 array (--dims 4)".into()
                },
            });
        }
        if !pattern.supports(dims) {
            return Err(Error::OutOfRange {
                name: "pattern".into(),
                value: pattern.name(dims),
                allowed: format!("{} for --dims {dims}", Pattern::names_for(dims).join(", ")),
            });
        }
        Ok(Self {
            shape,
            scheme,
            pattern,
        })
    }
}

/// Runs trials of one cell, one at a time, reusing its buffers.
///
/// [`Engine::run`] takes a fast path for the matrix cells of Table II (a `w x w` matrix, any
/// pattern but the malicious one, see `matrix`): it draws the warp and the shifts of the rows
/// it touches in bulk and counts without building [`Element`] values. [`Engine::run_general`]
/// serves every cell: it draws each element of the warp, then each element's shift from lazily
/// drawn tables. The two draw the same distribution in a different order (a test compares
/// their statistics cell by cell, another checks the fast path's count against the DMM
/// congestion of the addresses it computed).
#[derive(Debug, Clone)]
pub struct Engine {
    cell: Cell,
    streams: RunStreams,
    sampler: Sampler,
    counts: Vec<u32>,
    seen: Vec<u64>,
    elements: Vec<Element>,
    banks: Vec<u32>,
    malicious: Option<Arc<Vec<Element>>>,
    /// The fast path, for the matrix cells that have one.
    matrix: Option<MatrixTrials>,
}

impl Engine {
    /// An engine for `cell` with seed `seed` (builds the malicious access if the cell needs it).
    pub fn new(cell: Cell, seed: u64) -> Self {
        let malicious = (cell.pattern == Pattern::Malicious)
            .then(|| Arc::new(malicious_access(cell.scheme, cell.shape).0));
        Self::with_access(cell, seed, malicious)
    }

    fn with_access(cell: Cell, seed: u64, malicious: Option<Arc<Vec<Element>>>) -> Self {
        let shape = cell.shape;
        let w = shape.w();
        let matrix = (shape.dims() == 2 && cell.pattern != Pattern::Malicious)
            .then(|| MatrixTrials::new(w, cell.scheme, cell.pattern));
        // The general path's buffers are sized lazily, on its first trial.
        Self {
            cell,
            streams: RunStreams::new(seed),
            sampler: Sampler::new(w, 0, 0),
            counts: Vec::new(),
            seen: Vec::new(),
            elements: Vec::with_capacity(w as usize),
            banks: Vec::with_capacity(w as usize),
            malicious,
            matrix,
        }
    }

    /// Runs trial `trial`: draws the layout and the warp, returns its congestion (by the fast
    /// path where the cell has one, see [`Engine`]).
    pub fn run(&mut self, trial: u64) -> u32 {
        let mut rng = self.streams.trial(trial);
        match &mut self.matrix {
            Some(m) => m.run(&mut rng),
            None => self.run_general(trial),
        }
    }

    /// Runs trial `trial` on the general path, whatever the cell: draws the warp's elements,
    /// then each element's shift from the lazy tables, and keeps the elements and their
    /// addresses for [`Engine::elements`] and [`Engine::addresses`].
    pub fn run_general(&mut self, trial: u64) -> u32 {
        let shape = self.cell.shape;
        let w = shape.w();
        let dedup = self.cell.pattern.may_repeat();
        if self.counts.is_empty() {
            let scheme = self.cell.scheme;
            self.sampler =
                Sampler::new(w, scheme.permutations(shape), scheme.uniform_values(shape));
            self.counts = vec![0; w as usize];
            if dedup {
                self.seen = vec![0; shape.elements().div_ceil(64) as usize];
            }
        }
        let mut rng = self.streams.trial(trial);
        self.sampler.next_trial();
        self.draw_access(&mut rng);

        self.counts.fill(0);
        self.banks.clear();
        let mut max = 0;
        for e in &self.elements {
            let form = self.cell.scheme.form(shape, e.row);
            let mut bank = e.col + self.sampler.shift(&mut rng, &form);
            if bank >= w {
                bank -= w;
            }
            self.banks.push(bank);
            if dedup {
                let idx = e.index(shape);
                let (word, bit) = ((idx / 64) as usize, idx % 64);
                if self.seen[word] >> bit & 1 == 1 {
                    continue;
                }
                self.seen[word] |= 1 << bit;
            }
            let c = &mut self.counts[bank as usize];
            *c += 1;
            max = max.max(*c);
        }
        if dedup {
            for e in &self.elements {
                self.seen[(e.index(shape) / 64) as usize] = 0;
            }
        }
        max
    }

    fn draw_access(&mut self, rng: &mut TrialRng) {
        let shape = self.cell.shape;
        let w = shape.w();
        let four = shape.dims() == 4;
        let draw_row = |rng: &mut TrialRng| -> Row {
            let (i, j) = if four {
                (below(rng, w), below(rng, w))
            } else {
                (0, 0)
            };
            [i, j, below(rng, w)]
        };
        self.elements.clear();
        let out = &mut self.elements;
        match self.cell.pattern {
            Pattern::Contiguous => {
                let row = draw_row(rng);
                out.extend((0..w).map(|col| Element { row, col }));
            }
            Pattern::Stride(axis) => {
                let [i, j, k] = draw_row(rng);
                let col = below(rng, w);
                // Whole rows, not `row[axis] = t` on a copy: that partial store followed by a
                // full load stalls store forwarding and once cost a quarter of the run time.
                out.extend((0..w).map(|t| Element {
                    row: match axis {
                        1 => [i, j, t],
                        2 => [i, t, k],
                        _ => [t, j, k],
                    },
                    col,
                }));
            }
            Pattern::Diagonal => {
                let c = below(rng, w);
                out.extend((0..w).map(|t| Element {
                    row: [0, 0, t],
                    col: (c + t) % w,
                }));
            }
            Pattern::Random => {
                for _ in 0..w {
                    let row = draw_row(rng);
                    let col = below(rng, w);
                    out.push(Element { row, col });
                }
            }
            Pattern::Malicious => {
                let m = self
                    .malicious
                    .as_ref()
                    .unwrap_or_else(|| unreachable!("malicious engine without its access"));
                out.extend_from_slice(m);
            }
        }
    }

    /// The elements the last [`Engine::run_general`] trial's warp touched, thread 0 first.
    pub fn elements(&self) -> &[Element] {
        &self.elements
    }

    /// The addresses the last [`Engine::run_general`] trial's warp touched under its layout
    /// (`row * w + bank`), thread 0 first.
    pub fn addresses(&self) -> Vec<u64> {
        let shape = self.cell.shape;
        self.elements
            .iter()
            .zip(&self.banks)
            .map(|(e, &b)| shape.row_index(e.row) * u64::from(shape.w()) + u64::from(b))
            .collect()
    }
}

/// The outcome of a cell: how many trials had each congestion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellResult {
    /// The cell.
    pub cell: Cell,
    /// Trials run.
    pub trials: u64,
    /// The run's seed.
    pub seed: u64,
    /// `histogram[c]`: trials with congestion `c` (`0..=w`).
    pub histogram: Vec<u64>,
}

impl CellResult {
    /// Mean congestion over the trials.
    pub fn mean(&self) -> f64 {
        let sum: u64 = self
            .histogram
            .iter()
            .enumerate()
            .map(|(c, &n)| c as u64 * n)
            .sum();
        sum as f64 / self.trials.max(1) as f64
    }

    /// Largest congestion of any trial.
    pub fn max(&self) -> u32 {
        self.histogram.iter().rposition(|&n| n > 0).unwrap_or(0) as u32
    }

    /// Smallest congestion of any trial.
    pub fn min(&self) -> u32 {
        self.histogram.iter().position(|&n| n > 0).unwrap_or(0) as u32
    }

    /// The record `--json` prints.
    pub fn record(&self) -> Record {
        Record {
            dims: self.cell.shape.dims(),
            w: self.cell.shape.w(),
            scheme: self.cell.scheme.name().into(),
            pattern: self.cell.pattern.name(self.cell.shape.dims()),
            trials: self.trials,
            seed: self.seed,
            mean: self.mean(),
            max: self.max(),
            min: self.min(),
        }
    }
}

/// One cell's result as a flat record (one JSON line of `rtl-gen congestion --json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// 2 or 4.
    pub dims: u32,
    /// Matrix width, warp size and bank count.
    pub w: u32,
    /// Scheme name.
    pub scheme: String,
    /// Pattern name.
    pub pattern: String,
    /// Trials.
    pub trials: u64,
    /// Seed.
    pub seed: u64,
    /// Mean congestion.
    pub mean: f64,
    /// Largest congestion seen.
    pub max: u32,
    /// Smallest congestion seen.
    pub min: u32,
}

/// Simulates every cell for `trials` trials (at most [`MAX_TRIALS`]) with `seed`, in parallel
/// over cells and chunks of trials; `progress` is called with the number of trials each finished
/// chunk ran.
///
/// # Panics
/// If `trials` is above [`MAX_TRIALS`].
pub fn simulate(
    cells: &[Cell],
    trials: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<CellResult> {
    let malicious: Vec<Option<Arc<Vec<Element>>>> = cells
        .iter()
        .map(|c| {
            (c.pattern == Pattern::Malicious)
                .then(|| Arc::new(malicious_access(c.scheme, c.shape).0))
        })
        .collect();
    assert!(
        trials <= MAX_TRIALS,
        "{trials} trials: at most {MAX_TRIALS}"
    );
    let chunks = trials.div_ceil(CHUNK);
    let work: Vec<(usize, u64)> = (0..cells.len())
        .flat_map(|c| (0..chunks).map(move |k| (c, k)))
        .collect();
    let parts: Vec<(usize, Vec<u64>)> = work
        .into_par_iter()
        .map(|(c, k)| {
            let cell = cells[c];
            let mut engine = Engine::with_access(cell, seed, malicious[c].clone());
            let mut histogram = vec![0u64; cell.shape.w() as usize + 1];
            let (lo, hi) = (k * CHUNK, ((k + 1) * CHUNK).min(trials));
            for t in lo..hi {
                histogram[engine.run(t) as usize] += 1;
            }
            progress(hi - lo);
            (c, histogram)
        })
        .collect();
    let mut results: Vec<CellResult> = cells
        .iter()
        .map(|&cell| CellResult {
            cell,
            trials,
            seed,
            histogram: vec![0; cell.shape.w() as usize + 1],
        })
        .collect();
    for (c, h) in parts {
        for (total, n) in results[c].histogram.iter_mut().zip(h) {
            *total += n;
        }
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::congestion::congestion;

    fn cell(dims: u32, w: u32, scheme: Scheme, pattern: Pattern) -> Cell {
        Cell::new(dims, w, scheme, pattern).unwrap()
    }

    #[test]
    fn the_fast_count_agrees_with_the_dmm_congestion() {
        let mut cells = Vec::new();
        for w in [2, 5, 16] {
            for s in Scheme::TABLE_II {
                for p in Pattern::TABLE_II.into_iter().chain([Pattern::Malicious]) {
                    cells.push(cell(2, w, s, p));
                }
            }
        }
        for w in [3, 8] {
            for s in Scheme::TABLE_IV {
                for p in Pattern::TABLE_IV {
                    cells.push(cell(4, w, s, p));
                }
            }
        }
        for c in cells {
            let mut engine = Engine::new(c, 11);
            let w = u64::from(c.shape.w());
            for t in 0..200 {
                let got = engine.run_general(t);
                let addrs = engine.addresses();
                assert_eq!(addrs.len(), w as usize);
                assert_eq!(got, congestion(&addrs, |a| a % w), "{c:?} trial {t}");
                // The layout is a bijection: distinct elements, distinct addresses.
                let mut e: Vec<u64> = engine.elements().iter().map(|e| e.index(c.shape)).collect();
                let mut a = addrs.clone();
                e.sort_unstable();
                e.dedup();
                a.sort_unstable();
                a.dedup();
                assert_eq!(e.len(), a.len(), "{c:?}");
            }
        }
    }

    /// Every Table II cell at a power of two and at other widths.
    fn matrix_cells(widths: &[u32]) -> Vec<Cell> {
        let mut cells = Vec::new();
        for &w in widths {
            for s in Scheme::TABLE_II {
                for p in Pattern::TABLE_II {
                    cells.push(cell(2, w, s, p));
                }
            }
        }
        cells
    }

    #[test]
    fn the_fast_path_counts_the_dmm_congestion_of_the_warp_it_describes() {
        for c in matrix_cells(&[2, 3, 5, 16, 17, 64]) {
            let w = c.shape.w();
            let streams = RunStreams::new(7);
            let mut m = MatrixTrials::new(w, c.scheme, c.pattern);
            for t in 0..500 {
                let got = m.run(&mut streams.trial(t));
                let addrs = m.addresses();
                assert_eq!(
                    got,
                    congestion(&addrs, |a| a % u64::from(w)),
                    "{c:?} trial {t}"
                );
                // The warp is the pattern's: element t of the formula, for the fixed index
                // drawn (the random access: any elements).
                let elements = m.elements();
                let rows: Vec<u32> = elements.iter().map(|e| e.row[2]).collect();
                let cols: Vec<u32> = elements.iter().map(|e| e.col).collect();
                let all: Vec<u32> = (0..w).collect();
                match c.pattern {
                    Pattern::Contiguous => {
                        assert!(rows.iter().all(|&r| r == rows[0]) && cols == all)
                    }
                    Pattern::Stride(_) => {
                        assert!(cols.iter().all(|&k| k == cols[0]) && rows == all)
                    }
                    Pattern::Diagonal => {
                        assert!(
                            rows == all && (0..w).all(|t| cols[t as usize] == (cols[0] + t) % w)
                        )
                    }
                    _ => assert!(rows.iter().chain(&cols).all(|&v| v < w)),
                }
                // The shifts are RAW's zeros, a permutation under RAP.
                let shifts = m.shifts();
                match c.scheme {
                    Scheme::Raw => assert!(rows.iter().all(|&r| shifts[r as usize] == 0)),
                    Scheme::Rap if c.pattern != Pattern::Contiguous => {
                        let mut sorted = shifts.to_vec();
                        sorted.sort_unstable();
                        assert!(sorted.iter().enumerate().all(|(i, &v)| v as usize == i));
                    }
                    _ => assert!(shifts.iter().all(|&v| v < w)),
                }
            }
        }
    }

    /// Pearson's chi-square statistic of two histograms of equal totals (bins with fewer than
    /// ten trials in both pooled into one) and its degrees of freedom.
    fn chi_square_two_samples(a: &[u64], b: &[u64]) -> (f64, usize) {
        let (mut pooled, mut stat, mut bins) = ((0u64, 0u64), 0.0, 0);
        let mut add = |x: u64, y: u64| {
            if x + y > 0 {
                stat += (x as f64 - y as f64).powi(2) / (x + y) as f64;
                bins += 1;
            }
        };
        for (&x, &y) in a.iter().zip(b) {
            if x + y < 10 {
                pooled = (pooled.0 + x, pooled.1 + y);
            } else {
                add(x, y);
            }
        }
        add(pooled.0, pooled.1);
        (stat, bins.max(1) - 1)
    }

    #[test]
    fn the_fast_and_the_general_path_draw_the_same_distribution() {
        let trials = 10_000;
        for c in matrix_cells(&[12, 16]) {
            let w = c.shape.w() as usize;
            let mut e = Engine::new(c, 5);
            let (mut fast, mut general) = (vec![0u64; w + 1], vec![0u64; w + 1]);
            for t in 0..trials {
                fast[e.run(t) as usize] += 1;
                general[e.run_general(t) as usize] += 1;
            }
            let (stat, dof) = chi_square_two_samples(&fast, &general);
            // About the 0.1% point of chi-square with `dof` degrees of freedom (at most 13
            // here: 3.3 for one, 34.5 for 13).
            let bound = dof as f64 + 3.1 * (2.0 * dof as f64).sqrt() + 4.0;
            assert!(
                stat <= bound,
                "{c:?}: {fast:?} vs {general:?}: {stat:.1} > {bound:.1}"
            );
        }
    }

    /// Every layout of a `w x w` matrix under `scheme`, each as likely as the others: RAW's
    /// zero shifts, RAS's `w^w` shift vectors, RAP's `w!` permutations.
    fn every_layout(scheme: Scheme, w: u32) -> Vec<Vec<u32>> {
        let all: Vec<Vec<u32>> = (0..w.pow(w))
            .map(|mut code| {
                (0..w)
                    .map(|_| {
                        let digit = code % w;
                        code /= w;
                        digit
                    })
                    .collect()
            })
            .collect();
        match scheme {
            Scheme::Raw => vec![vec![0; w as usize]],
            Scheme::Ras => all,
            _ => all
                .into_iter()
                .filter(|s| (0..w).all(|v| s.contains(&v)))
                .collect(),
        }
    }

    /// Every warp of `pattern` on a `w x w` matrix as `(row, col)` per thread, each as likely as
    /// the others (the random access: all `(w^2)^w` tuples of elements).
    fn every_warp(pattern: Pattern, w: u32) -> Vec<Vec<(u32, u32)>> {
        match pattern {
            Pattern::Contiguous => (0..w).map(|k| (0..w).map(|t| (k, t)).collect()).collect(),
            Pattern::Stride(_) => (0..w).map(|c| (0..w).map(|t| (t, c)).collect()).collect(),
            Pattern::Diagonal => (0..w)
                .map(|c| (0..w).map(|t| (t, (c + t) % w)).collect())
                .collect(),
            _ => (0..(w * w).pow(w))
                .map(|mut code| {
                    (0..w)
                        .map(|_| {
                            let e = code % (w * w);
                            code /= w * w;
                            (e / w, e % w)
                        })
                        .collect()
                })
                .collect(),
        }
    }

    /// The exact distribution of a cell's congestion: every layout with every warp, each
    /// counted by the DMM congestion of its addresses (`models::congestion`), not by the
    /// simulator.
    fn exact_distribution(c: Cell) -> Vec<f64> {
        let w = c.shape.w();
        let (layouts, warps) = (every_layout(c.scheme, w), every_warp(c.pattern, w));
        let mut counts = vec![0u64; w as usize + 1];
        for shifts in &layouts {
            for warp in &warps {
                let addrs: Vec<u64> = warp
                    .iter()
                    .map(|&(row, col)| u64::from(row * w + (col + shifts[row as usize]) % w))
                    .collect();
                counts[congestion(&addrs, |a| a % u64::from(w)) as usize] += 1;
            }
        }
        let total = (layouts.len() * warps.len()) as f64;
        counts.iter().map(|&n| n as f64 / total).collect()
    }

    /// Pearson's chi-square statistic of a histogram against expected probabilities (bins
    /// expecting fewer than ten trials pooled into one) and its degrees of freedom.
    fn chi_square_fit(observed: &[u64], p: &[f64]) -> (f64, usize) {
        let trials = observed.iter().sum::<u64>() as f64;
        let (mut pooled, mut stat, mut bins) = ((0u64, 0.0), 0.0, 0);
        let mut add = |o: u64, e: f64| {
            if e > 0.0 {
                stat += (o as f64 - e).powi(2) / e;
                bins += 1;
            } else {
                assert_eq!(o, 0, "a congestion the exact distribution rules out");
            }
        };
        for (&o, &q) in observed.iter().zip(p) {
            if q * trials < 10.0 {
                pooled = (pooled.0 + o, pooled.1 + q * trials);
            } else {
                add(o, q * trials);
            }
        }
        if pooled.1 > 0.0 || pooled.0 > 0 {
            add(pooled.0, pooled.1);
        }
        (stat, bins.max(1) - 1)
    }

    /// Both paths draw each Table II cell's congestion with its exact distribution, computed by
    /// enumerating every layout and every warp at `w` = 2, 3 and 4 (the random access at 2 and
    /// 3, where the `(w^2)^w` warps stay few): a biased shuffle, a biased bounded draw or a
    /// wrong count would show. The bound is about the 0.01% point of chi-square (Wilson and
    /// Hilferty's approximation); the seed is fixed, so the test is deterministic.
    #[test]
    fn both_paths_draw_the_exact_distribution_of_small_cells() {
        let trials = 20_000;
        for w in [2, 3, 4] {
            for c in matrix_cells(&[w]) {
                if c.pattern == Pattern::Random && w == 4 {
                    continue;
                }
                let p = exact_distribution(c);
                let mut e = Engine::new(c, 8);
                let (mut fast, mut general) =
                    (vec![0u64; w as usize + 1], vec![0u64; w as usize + 1]);
                for t in 0..trials {
                    fast[e.run(t) as usize] += 1;
                    general[e.run_general(t) as usize] += 1;
                }
                for (path, observed) in [("fast", &fast), ("general", &general)] {
                    let (stat, dof) = chi_square_fit(observed, &p);
                    let k = dof.max(1) as f64;
                    let bound =
                        k * (1.0 - 2.0 / (9.0 * k) + 3.72 * (2.0 / (9.0 * k)).sqrt()).powi(3);
                    assert!(
                        dof == 0 || stat <= bound,
                        "{c:?} {path} path: {observed:?} against {p:?}: {stat:.1} > {bound:.1}"
                    );
                }
            }
        }
    }

    /// The AVX2 copy of the fast path returns, trial by trial, what the portable code returns.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_copy_of_the_fast_path_returns_what_the_portable_code_returns() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("no AVX2 on this processor: nothing to compare");
            return;
        }
        for c in matrix_cells(&[5, 16, 17, 64]) {
            let streams = RunStreams::new(4);
            let mut portable = MatrixTrials::new(c.shape.w(), c.scheme, c.pattern);
            let mut avx2 = portable.clone();
            for t in 0..300 {
                let want = portable.run_portable(&mut streams.trial(t));
                // SAFETY: the processor has AVX2, checked above.
                let got = unsafe { avx2.run_avx2(&mut streams.trial(t)) };
                assert_eq!(got, want, "{c:?} trial {t}");
            }
        }
    }

    #[test]
    fn results_do_not_depend_on_threads_or_on_the_other_cells() {
        let a = cell(2, 32, Scheme::Rap, Pattern::Diagonal);
        let b = cell(2, 16, Scheme::Ras, Pattern::Random);
        let none = |_| {};
        let together = simulate(&[a, b], 5000, 3, &none);
        let alone = simulate(&[b], 5000, 3, &none);
        assert_eq!(together[1], alone[0]);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let single = pool.install(|| simulate(&[a, b], 5000, 3, &none));
        assert_eq!(single, together);
        assert_ne!(simulate(&[a], 5000, 4, &none)[0], together[0]);
        // A trial's result is the same wherever it runs.
        let mut e = Engine::new(a, 3);
        let t4000 = e.run(4000);
        let mut fresh = Engine::new(a, 3);
        assert_eq!(fresh.run(4000), t4000);
    }

    #[test]
    fn progress_counts_every_trial() {
        use std::sync::atomic::{AtomicU64, Ordering};
        let done = AtomicU64::new(0);
        let c = cell(2, 8, Scheme::Raw, Pattern::Contiguous);
        let r = simulate(&[c, c], 5000, 1, &|n| {
            done.fetch_add(n, Ordering::Relaxed);
        });
        assert_eq!(done.load(Ordering::Relaxed), 10_000);
        assert_eq!(r[0].histogram[1], 5000);
        assert_eq!(r[0].record().mean, 1.0);
    }
}
