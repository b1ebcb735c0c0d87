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
use super::rng::TrialRng;
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
                allowed: if dims == 2 {
                    "contiguous, stride, diagonal, random or malicious for --dims 2".into()
                } else {
                    "contiguous, stride1, stride2, stride3, random or malicious for --dims 4".into()
                },
            });
        }
        Ok(Self {
            shape,
            scheme,
            pattern,
        })
    }
}

/// The generator of trial `trial` of a run seeded with `seed` (see [`TrialRng`]).
pub fn trial_rng(seed: u64, trial: u64) -> TrialRng {
    TrialRng::new(seed, trial)
}

/// Runs trials of one cell, one at a time, reusing its buffers.
///
/// [`Engine::run`] takes a fast path for the matrix cells of Table II (a `w x w` matrix, any
/// pattern but the malicious one): it draws exactly what [`Engine::run_general`] draws, in the
/// same order (so a trial's congestion is the same on both paths, which a test checks cell by
/// cell), but walks the warp's rows without building elements, takes the shifts of the rows
/// touched, in order of first appearance, from a forward Fisher-Yates shuffle (RAP) or a run of
/// uniform draws (RAS) instead of the lazy tables, and keeps no per-thread addresses.
#[derive(Debug, Clone)]
pub struct Engine {
    cell: Cell,
    seed: u64,
    sampler: Sampler,
    counts: Vec<u32>,
    seen: Vec<u64>,
    elements: Vec<Element>,
    banks: Vec<u32>,
    malicious: Option<Arc<Vec<Element>>>,
    /// The fast path's shifts of rows `0..w` (RAP: the shuffled pool, started as `identity`).
    shifts: Vec<u32>,
    identity: Vec<u32>,
    /// The fast path's random elements: `(row, col)`.
    picks: Vec<(u32, u32)>,
    /// The fast path's order of first appearance of each row in a random warp.
    rank: Vec<u32>,
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
        let seen = if cell.pattern.may_repeat() {
            vec![0u64; shape.elements().div_ceil(64) as usize]
        } else {
            Vec::new()
        };
        Self {
            cell,
            seed,
            sampler: Sampler::new(
                w,
                cell.scheme.permutations(shape),
                cell.scheme.uniform_values(shape),
            ),
            counts: vec![0; w as usize],
            seen,
            elements: Vec::with_capacity(w as usize),
            banks: Vec::with_capacity(w as usize),
            malicious,
            shifts: vec![0; w as usize],
            identity: (0..w).collect(),
            picks: Vec::with_capacity(w as usize),
            rank: vec![0; w as usize],
        }
    }

    /// Runs trial `trial`: draws the layout and the warp, returns its congestion (by the fast
    /// path where the cell has one, see [`Engine`]).
    pub fn run(&mut self, trial: u64) -> u32 {
        if self.cell.shape.dims() == 2 && self.cell.pattern != Pattern::Malicious {
            self.run_matrix(trial)
        } else {
            self.run_general(trial)
        }
    }

    /// The fast path of [`Engine::run`] for a matrix cell.
    fn run_matrix(&mut self, trial: u64) -> u32 {
        let mut rng = trial_rng(self.seed, trial);
        let w = self.cell.shape.w();
        let scheme = self.cell.scheme;
        self.counts.fill(0);
        let mut max = 0;
        let mut bump = |counts: &mut [u32], bank: u32| {
            let c = &mut counts[bank as usize];
            *c += 1;
            max = max.max(*c);
        };
        let wrap = |x: u32| if x >= w { x - w } else { x };
        match self.cell.pattern {
            Pattern::Contiguous => {
                let _row = below(&mut rng, w);
                // The row's shift: a fresh permutation's first entry and a uniform value are
                // both one draw below w.
                let s = match scheme {
                    Scheme::Raw => 0,
                    _ => below(&mut rng, w),
                };
                for col in 0..w {
                    bump(&mut self.counts, wrap(col + s));
                }
            }
            Pattern::Stride(_) | Pattern::Diagonal => {
                let stride = matches!(self.cell.pattern, Pattern::Stride(_));
                if stride {
                    let _row = below(&mut rng, w);
                }
                let c = below(&mut rng, w);
                self.first_shifts(&mut rng, w as usize);
                for (t, &s) in self.shifts.iter().enumerate() {
                    let col = if stride { c } else { wrap(c + t as u32) };
                    bump(&mut self.counts, wrap(col + s));
                }
            }
            Pattern::Random => {
                self.picks.clear();
                for _ in 0..w {
                    let row = below(&mut rng, w);
                    let col = below(&mut rng, w);
                    self.picks.push((row, col));
                }
                // The lazy tables draw a row's shift when the row first appears, and what they
                // draw does not depend on which row it is: the distinct rows' shifts in order of
                // first appearance are the first draws of the in-order run.
                self.rank.fill(u32::MAX);
                let mut distinct = 0;
                for &(row, _) in &self.picks {
                    let r = &mut self.rank[row as usize];
                    if *r == u32::MAX {
                        *r = distinct;
                        distinct += 1;
                    }
                }
                self.first_shifts(&mut rng, distinct as usize);
                for &(row, col) in &self.picks {
                    let s = self.shifts[self.rank[row as usize] as usize];
                    let idx = row as usize * w as usize + col as usize;
                    let (word, bit) = (idx / 64, idx % 64);
                    if self.seen[word] >> bit & 1 == 1 {
                        continue;
                    }
                    self.seen[word] |= 1 << bit;
                    bump(&mut self.counts, wrap(col + s));
                }
                for &(row, col) in &self.picks {
                    self.seen[(row as usize * w as usize + col as usize) / 64] = 0;
                }
            }
            Pattern::Malicious => unreachable!("the malicious access takes the general path"),
        }
        max
    }

    /// The shifts of the first `n` rows a warp touches, in the order it first touches them, as
    /// the lazy tables would draw them, into `shifts[..n]`.
    fn first_shifts(&mut self, rng: &mut TrialRng, n: usize) {
        let w = self.cell.shape.w();
        match self.cell.scheme {
            Scheme::Raw => self.shifts[..n].fill(0),
            Scheme::Ras => {
                for s in &mut self.shifts[..n] {
                    *s = below(rng, w);
                }
            }
            _ => {
                // Forward Fisher-Yates: entry t takes a uniform pick among the values left.
                self.shifts.copy_from_slice(&self.identity);
                for t in 0..n {
                    let pick = t + below(rng, w - t as u32) as usize;
                    self.shifts.swap(t, pick);
                }
            }
        }
    }

    /// Runs trial `trial` on the general path, whatever the cell: draws the warp's elements,
    /// then each element's shift from the lazy tables, and keeps the elements and their
    /// addresses for [`Engine::elements`] and [`Engine::addresses`].
    pub fn run_general(&mut self, trial: u64) -> u32 {
        let mut rng = trial_rng(self.seed, trial);
        self.sampler.next_trial();
        self.draw_access(&mut rng);

        let shape = self.cell.shape;
        let w = shape.w();
        let dedup = self.cell.pattern.may_repeat();
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

/// Simulates every cell for `trials` trials with `seed`, in parallel over cells and chunks of
/// trials; `progress` is called with the number of trials each finished chunk ran.
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

    #[test]
    fn the_fast_path_draws_and_counts_as_the_general_one() {
        for w in [2, 3, 5, 16, 17, 64] {
            for s in Scheme::TABLE_II {
                for p in Pattern::TABLE_II {
                    let c = cell(2, w, s, p);
                    let (mut fast, mut general) = (Engine::new(c, 7), Engine::new(c, 7));
                    for t in 0..3000 {
                        assert_eq!(fast.run(t), general.run_general(t), "{c:?} trial {t}");
                    }
                }
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
