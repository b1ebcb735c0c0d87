//! The Givargis heuristic (the XOR paper's section 5.2.1, after Givargis \[3\]), extended to
//! several reference sets by summing their qualities.
//!
//! For each reference set `R` (a distinct warp access) and candidate bank bit `i`, the quality
//! `Q_i = min(Z_i, O_i) / max(Z_i, O_i)` (Eq. 11) measures how evenly the bit splits `R`, and the
//! correlation `C_ij = min(E_ij, D_ij) / max(E_ij, D_ij)` (Eq. 12) how independent two bits are.
//! Each step selects the candidate with the largest combined quality `sum_R w_R Q_i^R`
//! (`w_R`: the warp accesses that issue `R`) and multiplies every `Q_i^R` by `C_bi^R`. Ties go
//! to the candidate listed first (see [`crate::search::columns`]); candidates linearly
//! dependent on the selected bits are skipped.

use crate::search::columns::{Column, Independence};
use crate::search::cost::Workload;

/// Ties closer than this are equal.
const EPSILON: f64 = 1e-9;

/// `min(x, y) / max(x, y)`, 0 when both are 0.
fn ratio(x: usize, y: usize) -> f64 {
    if x.max(y) == 0 {
        0.0
    } else {
        x.min(y) as f64 / x.max(y) as f64
    }
}

/// Eq. 11: the quality of `column` over `addresses`.
pub fn quality(addresses: &[u64], column: Column) -> f64 {
    let ones = addresses.iter().filter(|&&a| column.value(a) == 1).count();
    ratio(addresses.len() - ones, ones)
}

/// Eq. 12: the correlation of two candidate bits over `addresses`.
pub fn correlation(addresses: &[u64], x: Column, y: Column) -> f64 {
    let different = addresses
        .iter()
        .filter(|&&a| x.value(a) != y.value(a))
        .count();
    ratio(addresses.len() - different, different)
}

/// Selects `m` bank bits among `candidates` for the workload, bank bit 0 first.
pub fn givargis(workload: &Workload, candidates: &[Column], m: u32) -> Vec<Column> {
    let sets = workload.sets();
    let mut q: Vec<Vec<f64>> = sets
        .iter()
        .map(|s| {
            candidates
                .iter()
                .map(|&c| quality(&s.addresses, c))
                .collect()
        })
        .collect();
    let mut chosen = Vec::new();
    let mut independence = Independence::default();
    for _ in 0..m {
        let mut best: Option<(usize, f64)> = None;
        for (i, &c) in candidates.iter().enumerate() {
            if !independence.admits(c.row()) {
                continue;
            }
            let combined: f64 = sets
                .iter()
                .zip(&q)
                .map(|(s, qs)| s.weight as f64 * qs[i])
                .sum();
            if best.is_none_or(|(_, b)| combined > b + EPSILON) {
                best = Some((i, combined));
            }
        }
        let Some((b, _)) = best else {
            unreachable!("n >= m candidates are independent")
        };
        let selected = candidates[b];
        chosen.push(selected);
        independence.add(selected.row());
        for (s, qs) in sets.iter().zip(q.iter_mut()) {
            for (i, &c) in candidates.iter().enumerate() {
                qs[i] *= correlation(&s.addresses, selected, c);
            }
        }
    }
    chosen
}
