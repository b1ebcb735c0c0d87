//! The Minimum Imbalance Heuristic (the XOR paper's section 5.2.2, Listing 1), with the summed
//! imbalance of Eq. 15 over several reference sets.
//!
//! With bank bits `P = (b_{k-1}, ..., b_0)` already selected, a candidate `A_i` splits each
//! reference set `R` over the `2^(k+1)` values of `(A_i, P)`; its imbalance (Eq. 14) is
//! `sum_j |h_i(j) - |R| / 2^(k+1)| / |R|`. Each step selects the candidate with the smallest
//! `sum_R w_R imbalance_R(A_i)` (Eq. 15; `w_R`: the warp accesses that issue `R`). Ties go to
//! the candidate listed first (see [`crate::search::columns`]); candidates linearly dependent on
//! the selected bits are skipped.

use crate::search::columns::{Column, Independence};
use crate::search::cost::Workload;

/// Ties closer than this are equal.
const EPSILON: f64 = 1e-9;

/// Eq. 14: the imbalance of `candidate` over `addresses` given the bits `selected` so far.
pub fn imbalance(addresses: &[u64], selected: &[Column], candidate: Column) -> f64 {
    let mut codes: Vec<u64> = addresses
        .iter()
        .map(|&a| {
            selected
                .iter()
                .chain(std::iter::once(&candidate))
                .enumerate()
                .fold(0, |code, (i, c)| code | (c.value(a) << i))
        })
        .collect();
    codes.sort_unstable();
    let bins = 1u64 << (selected.len() + 1);
    let total = addresses.len() as f64;
    let even = total / bins as f64;
    let mut occupied = 0;
    let mut sum = 0.0;
    for run in codes.chunk_by(|x, y| x == y) {
        occupied += 1;
        sum += (run.len() as f64 - even).abs();
    }
    sum += (bins - occupied) as f64 * even;
    sum / total
}

/// Selects `m` bank bits among `candidates` for the workload, bank bit 0 first.
pub fn mih(workload: &Workload, candidates: &[Column], m: u32) -> Vec<Column> {
    let sets = workload.sets();
    let mut chosen: Vec<Column> = Vec::new();
    let mut independence = Independence::default();
    for _ in 0..m {
        let mut best: Option<(Column, f64)> = None;
        for &c in candidates {
            if !independence.admits(c.row()) {
                continue;
            }
            let summed: f64 = sets
                .iter()
                .map(|s| s.weight as f64 * imbalance(&s.addresses, &chosen, c))
                .sum();
            if best.is_none_or(|(_, b)| summed < b - EPSILON) {
                best = Some((c, summed));
            }
        }
        let Some((selected, _)) = best else {
            unreachable!("n >= m candidates are independent")
        };
        chosen.push(selected);
        independence.add(selected.row());
    }
    chosen
}
