//! The `xor-matrix` search: any `m x n` matrix over GF(2), beyond the paper's families.
//!
//! **Exact part.** A warp access whose distinct addresses form an affine subspace
//! `a0 + V` (`|V| = 2^d`: power-of-two strides, aligned blocks, the Fast Walsh transform's
//! sub-warps) is spread by a linear hash `H` evenly over `2^rank(H V)` banks, so its congestion
//! is `2^(d - rank(H V))`; it is conflict-free exactly when `H` is injective on `V`, and it
//! reaches the least possible congestion `2^max(0, d-m)` exactly when `rank(H V) = min(d, m)`.
//! A depth-first search over matrices in reduced column-echelon form (one per row space: two
//! matrices with the same row space only rename the banks) finds a full-rank matrix meeting
//! that rank on every affine access, or proves there is none, up to [`NODE_LIMIT`] nodes.
//! When every access is affine and a matrix is found, it is optimal.
//!
//! **Improvement.** The best of the paper's families (the seeds) and the exact matrix, if any,
//! start a hill climb over single-bit flips of the matrix with the exact cost of every access,
//! restarted [`ROUNDS`] times from the best matrix after two random flips (ChaCha8, seed 0).
//! The result is never worse than the best seed; it is certified optimal when it meets the
//! workload's lower bound. Ties keep the earlier matrix (seeds in the order given).

use crate::search::cost::{Cost, Workload};
use crate::search::Candidate;
use crate::{HashConfig, HashFunction, XorMatrix};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Nodes the exact search may visit before giving up.
pub const NODE_LIMIT: u64 = 2_000_000;
/// Restarts of the hill climb.
pub const ROUNDS: usize = 16;

/// What the exact search over the affine accesses concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exact {
    /// No access is an affine subspace of two or more addresses.
    NoAffineAccess,
    /// A matrix meets the least congestion on every affine access.
    Found,
    /// No matrix does (the search was complete).
    Impossible,
    /// The node limit was reached first.
    GaveUp,
}

/// The result of the `xor-matrix` search.
#[derive(Debug, Clone, PartialEq)]
pub struct Gf2Search {
    /// The best matrix found.
    pub best: Candidate,
    /// Distinct access sets that are affine subspaces.
    pub affine_sets: usize,
    /// Distinct access sets.
    pub sets: usize,
    /// The exact search's conclusion.
    pub exact: Exact,
    /// Whether the result meets the workload's lower bound (no hash can do better).
    pub optimal: bool,
}

/// The direction space of `addresses` (distinct) as a basis, if they form an affine subspace.
pub fn affine_directions(addresses: &[u64]) -> Option<Vec<u64>> {
    let (&a0, _) = addresses.split_first()?;
    if !addresses.len().is_power_of_two() {
        return None;
    }
    let mut basis: Vec<u64> = Vec::new();
    for &a in addresses {
        let r = basis.iter().fold(a ^ a0, |r, b| r.min(r ^ b));
        if r != 0 {
            basis.push(r);
            basis.sort_unstable_by(|x, y| y.cmp(x));
        }
    }
    (1usize << basis.len() == addresses.len()).then_some(basis)
}

/// GF(2) rank of a list of vectors.
fn rank(vectors: impl IntoIterator<Item = u64>) -> u32 {
    let mut basis: Vec<u64> = Vec::new();
    for v in vectors {
        let r = basis.iter().fold(v, |r, b| r.min(r ^ b));
        if r != 0 {
            basis.push(r);
            basis.sort_unstable_by(|x, y| y.cmp(x));
        }
    }
    basis.len() as u32
}

/// One affine access's requirement: the images of `basis` must have rank `target`.
struct Constraint {
    basis: Vec<u64>,
    target: u32,
}

struct Dfs<'a> {
    n: u32,
    m: u32,
    /// `by_column[j]`: the constraints whose highest address bit is `j`.
    by_column: Vec<Vec<&'a Constraint>>,
    columns: Vec<u64>,
    nodes: u64,
}

impl Dfs<'_> {
    fn image(&self, v: u64) -> u64 {
        (0..self.n)
            .filter(|&j| v >> j & 1 == 1)
            .fold(0, |acc, j| acc ^ self.columns[j as usize])
    }

    /// Assigns column `j` onwards with `p` pivots so far; `None` when the node limit is hit.
    fn visit(&mut self, j: u32, p: u32) -> Option<bool> {
        if j == self.n {
            return Some(p == self.m);
        }
        let mut values: Vec<u64> = Vec::new();
        if p < self.m {
            values.push(1 << p);
        }
        if self.m - p < self.n - j {
            values.extend(0..1u64 << p);
        }
        for value in values {
            self.nodes += 1;
            if self.nodes > NODE_LIMIT {
                return None;
            }
            self.columns[j as usize] = value;
            let ok = self.by_column[j as usize]
                .iter()
                .all(|c| rank(c.basis.iter().map(|&b| self.image(b))) == c.target);
            if ok && self.visit(j + 1, p + u32::from(value == 1 << p))? {
                return Some(true);
            }
        }
        Some(false)
    }
}

/// A full-rank matrix meeting the least congestion on every affine access of the workload.
fn exact(workload: &Workload) -> (Exact, Option<Vec<u64>>, usize) {
    let g = workload.geometry();
    let (n, m) = (g.addr_bits(), g.bank_bits());
    let constraints: Vec<Constraint> = workload
        .sets()
        .iter()
        .filter_map(|s| affine_directions(&s.addresses))
        .filter(|basis| !basis.is_empty())
        .map(|basis| Constraint {
            target: (basis.len() as u32).min(m),
            basis,
        })
        .collect();
    if constraints.is_empty() {
        return (Exact::NoAffineAccess, None, 0);
    }
    let mut by_column: Vec<Vec<&Constraint>> = (0..n).map(|_| Vec::new()).collect();
    for c in &constraints {
        let high = c.basis.iter().fold(0, |acc, b| acc | b);
        by_column[(63 - high.leading_zeros()) as usize].push(c);
    }
    let mut dfs = Dfs {
        n,
        m,
        by_column,
        columns: vec![0; n as usize],
        nodes: 0,
    };
    let count = constraints.len();
    match dfs.visit(0, 0) {
        None => (Exact::GaveUp, None, count),
        Some(false) => (Exact::Impossible, None, count),
        Some(true) => {
            let rows = (0..m)
                .map(|i| (0..n).fold(0, |row, j| row | ((dfs.columns[j as usize] >> i & 1) << j)))
                .collect();
            (Exact::Found, Some(rows), count)
        }
    }
}

fn cost_of(workload: &Workload, rows: &[u64]) -> Cost {
    let matrix = XorMatrix::new(workload.geometry().addr_bits(), rows.to_vec());
    workload.cost(|a| matrix.apply(a))
}

fn full_rank(rows: &[u64]) -> bool {
    rank(rows.iter().copied()) == rows.len() as u32
}

/// Hill climb over single-bit flips from `rows`; returns a matrix no worse.
fn climb(workload: &Workload, mut rows: Vec<u64>, mut cost: Cost) -> (Vec<u64>, Cost) {
    let n = workload.geometry().addr_bits();
    loop {
        let mut best: Option<(Vec<u64>, Cost)> = None;
        for i in 0..rows.len() {
            for j in 0..n {
                let mut next = rows.clone();
                next[i] ^= 1 << j;
                if !full_rank(&next) {
                    continue;
                }
                let c = cost_of(workload, &next);
                let bar = best.as_ref().map_or(cost.replays, |(_, b)| b.replays);
                if c.replays < bar {
                    best = Some((next, c));
                }
            }
        }
        match best {
            Some((next, c)) => (rows, cost) = (next, c),
            None => return (rows, cost),
        }
    }
}

/// The `xor-matrix` search seeded with the paper's families' best configurations.
pub fn gf2(workload: &Workload, seeds: &[Candidate]) -> Gf2Search {
    let g = workload.geometry();
    let n = g.addr_bits();
    let bound = workload.lower_bound();
    let (exact, exact_rows, affine_sets) = exact(workload);
    let mut starts: Vec<Vec<u64>> = seeds
        .iter()
        .map(|s| s.config.to_matrix().rows().to_vec())
        .collect();
    starts.extend(exact_rows);
    let (mut best_rows, mut best_cost) = starts
        .iter()
        .map(|r| (r.clone(), cost_of(workload, r)))
        .fold(None::<(Vec<u64>, Cost)>, |acc, (r, c)| match acc {
            Some((_, ac)) if ac.replays <= c.replays => acc,
            _ => Some((r, c)),
        })
        .unwrap_or_else(|| {
            let rows: Vec<u64> = (0..g.bank_bits()).map(|i| 1 << i).collect();
            let c = cost_of(workload, &rows);
            (rows, c)
        });
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut current = (best_rows.clone(), best_cost);
    for _ in 0..ROUNDS {
        if best_cost.replays <= bound.replays {
            break;
        }
        let (rows, cost) = climb(workload, current.0, current.1);
        if cost.replays < best_cost.replays {
            (best_rows, best_cost) = (rows, cost);
        }
        let mut kicked = best_rows.clone();
        for _ in 0..2 {
            loop {
                let (i, j) = (rng.gen_range(0..kicked.len()), rng.gen_range(0..n));
                kicked[i] ^= 1 << j;
                if full_rank(&kicked) {
                    break;
                }
                kicked[i] ^= 1 << j;
            }
        }
        let kicked_cost = cost_of(workload, &kicked);
        current = (kicked, kicked_cost);
    }
    let config = HashConfig::new(g, HashFunction::XorMatrix { rows: best_rows })
        .unwrap_or_else(|e| unreachable!("the search keeps rows inside n bits: {e}"));
    Gf2Search {
        best: Candidate {
            config,
            cost: best_cost,
        },
        affine_sets,
        sets: workload.sets().len(),
        exact,
        optimal: best_cost.replays <= bound.replays,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_affine_subspaces() {
        // Stride 8, 4 threads, offset 3: 3 + span{8, 16}.
        let b = affine_directions(&[3, 11, 19, 27]).unwrap();
        assert_eq!(b.len(), 2);
        // 5..8 is not a coset (5 ^ 6 ^ 7 = 4 is not in it).
        assert!(affine_directions(&[5, 6, 7, 8]).is_none());
        assert!(affine_directions(&[1, 2, 3]).is_none());
        assert_eq!(affine_directions(&[9]).unwrap(), Vec::<u64>::new());
    }
}
