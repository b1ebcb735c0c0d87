//! The exhaustive bit-vector searches of the XOR paper's section 5.1, with its pruning.
//!
//! Every bit-vector permutation (`k` in `0..=n-m`) and every bit-vector XOR
//! (`k1` in `0..=n-m`, `k2` in `0..n`, `mask` below `2^m`: `(n-m+1) * n * 2^m` = 4480
//! configurations for 14 address bits and 32 banks) is scored on the workload.
//!
//! The pruned space keeps `k1` among the `k` of the strides seen (`S = S0 * 2^k`), `k2` in
//! `[min k, max MSB]` without `k1`, and only masks whose bits `k2 + i` stay at or below the
//! largest MSB; with strides 4 and 6 over 32 threads that is the paper's 188 of 4480. When no
//! `k2` remains for a `k1`, its permutation (`mask = 0`) is still tried. Without
//! any stride (only random accesses or broadcasts) the pruned space is the full one.
//!
//! Ties: the fewest replays win; then the fewest mask bits (a bit-vector permutation,
//! `mask = 0`, before any XOR, as the paper prefers); then the smallest `k1`, `k2`, `mask`.
//! With `mask = 0` the second vector plays no part and `k2` is written as 0.
//! `k1 = k2` with a non-zero mask cancels bank bits (rank below `m`) and is never chosen.

use crate::search::classify::StrideSpan;
use crate::search::cost::Workload;
use crate::search::Candidate;
use crate::{HashConfig, HashFunction};

/// The result of the bit-vector XOR search: the full and the pruned search.
#[derive(Debug, Clone, PartialEq)]
pub struct BitvectorXorSearch {
    /// Best configuration of the full space.
    pub full: Candidate,
    /// Size of the full space, `(n-m+1) * n * 2^m`.
    pub full_space: u64,
    /// Best configuration of the pruned space.
    pub pruned: Candidate,
    /// Size of the pruned space, counted as the paper counts it.
    pub pruned_space: u64,
}

impl BitvectorXorSearch {
    /// Whether the pruned search found a configuration as good as the full search's.
    pub fn pruned_as_good(&self) -> bool {
        self.pruned.cost.replays <= self.full.cost.replays
    }
}

fn shr(value: u64, amount: u32) -> u64 {
    value.checked_shr(amount).unwrap_or(0)
}

/// The best bit-vector permutation: every `k`, ties to the smallest.
pub fn bitvector_perm(workload: &Workload) -> Candidate {
    let g = workload.geometry();
    let bank_mask = g.bank_mask();
    (0..=g.addr_bits() - g.bank_bits())
        .map(|k| (k, workload.cost(|a| shr(a, k) & bank_mask)))
        .min_by_key(|(k, cost)| (cost.replays, *k))
        .map(|(k, cost)| Candidate::new(g, HashFunction::BitvectorPerm { k }, cost))
        .unwrap_or_else(|| unreachable!("n >= m gives at least one k"))
}

/// `(k1, k2, mask)` in the paper's order of preference among equal replays.
type Key = (u32, u32, u32, u64);

fn key(k1: u32, k2: u32, mask: u64) -> Key {
    let k2 = if mask == 0 { 0 } else { k2 };
    (mask.count_ones(), k1, k2, mask)
}

/// Scores the configurations `space` yields and keeps the best; returns it and the count.
fn best_of(workload: &Workload, space: impl Iterator<Item = (u32, u32, u64)>) -> (Candidate, u64) {
    let g = workload.geometry();
    let bank_mask = g.bank_mask();
    let mut best: Option<(u64, Key)> = None;
    let mut best_cost = None;
    let mut count = 0;
    for (k1, k2, mask) in space {
        count += 1;
        if k1 == k2 && mask != 0 {
            continue;
        }
        let cost = workload.cost(|a| (shr(a, k1) ^ (shr(a, k2) & mask)) & bank_mask);
        let rank = (cost.replays, key(k1, k2, mask));
        if best.is_none_or(|b| rank < b) {
            best = Some(rank);
            best_cost = Some(cost);
        }
    }
    let (Some((_, (_, k1, k2, mask))), Some(cost)) = (best, best_cost) else {
        unreachable!("every space holds k1 = k, mask = 0")
    };
    (
        Candidate::new(g, HashFunction::BitvectorXor { k1, k2, mask }, cost),
        count,
    )
}

/// The exhaustive bit-vector XOR search over the full space and the space pruned by the
/// workload's `strides`.
pub fn bitvector_xor(workload: &Workload, strides: &[StrideSpan]) -> BitvectorXorSearch {
    let g = workload.geometry();
    let (n, m) = (g.addr_bits(), g.bank_bits());
    let full_space = (0..=n - m)
        .flat_map(|k1| (0..n).flat_map(move |k2| (0..1u64 << m).map(move |mask| (k1, k2, mask))));
    let (full, full_count) = best_of(workload, full_space);
    let (pruned, pruned_count) = match pruned_space(strides, n, m) {
        Some(space) => best_of(workload, space.into_iter()),
        None => (full.clone(), full_count),
    };
    BitvectorXorSearch {
        full,
        full_space: full_count,
        pruned,
        pruned_space: pruned_count,
    }
}

/// The paper's pruned space, `None` when no stride bounds it.
pub fn pruned_space(strides: &[StrideSpan], n: u32, m: u32) -> Option<Vec<(u32, u32, u64)>> {
    let mut k1s: Vec<u32> = strides
        .iter()
        .map(|s| s.k())
        .filter(|&k| k <= n - m)
        .collect();
    k1s.sort_unstable();
    k1s.dedup();
    let k_min = strides.iter().map(|s| s.k()).min()?;
    let msb_max = strides.iter().filter_map(|s| s.msb()).max()?.min(n - 1);
    if k1s.is_empty() {
        return None;
    }
    let mut space = Vec::new();
    for &k1 in &k1s {
        let before = space.len();
        for k2 in (k_min..=msb_max).filter(|&k2| k2 != k1) {
            let mask_bits = m.min(msb_max - k2 + 1);
            space.extend((0..1u64 << mask_bits).map(|mask| (k1, k2, mask)));
        }
        if space.len() == before {
            // No k2 beside k1 (a single k and MSB): the permutation k1 = k alone.
            space.push((k1, 0, 0));
        }
    }
    Some(space)
}

impl Candidate {
    /// A candidate from a function the search built (valid by construction).
    pub(crate) fn new(
        geometry: crate::Geometry,
        function: HashFunction,
        cost: crate::search::Cost,
    ) -> Self {
        let config = HashConfig::new(geometry, function)
            .unwrap_or_else(|e| unreachable!("a search built an invalid configuration: {e}"));
        Self { config, cost }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::classify::AccessClass;

    /// Section 5.1: strides 4 and 6 over 32 threads, 14 bits, 32 banks: 188 of 4480.
    #[test]
    fn pruned_space_of_the_papers_example_has_188_configurations() {
        let strides: Vec<StrideSpan> = [4, 6]
            .iter()
            .flat_map(|&s| AccessClass::Stride { stride: s }.strides(32))
            .collect();
        let space = pruned_space(&strides, 14, 5).unwrap();
        assert_eq!(space.len(), 188);
        assert!(space
            .iter()
            .all(|&(k1, k2, _)| [1, 2].contains(&k1) && (1..=7).contains(&k2) && k1 != k2));
        assert!(pruned_space(&[], 14, 5).is_none());
        // Stride 32 over 2 threads on 8 bits: k = MSB = 5, only the permutation k1 = 5 is left.
        let lone = AccessClass::Stride { stride: 32 }.strides(2);
        assert_eq!(pruned_space(&lone, 8, 3).unwrap(), vec![(5, 0, 0)]);
    }
}
