//! What a search minimises: the bank conflicts of a kernel's warp accesses under a hash.
//!
//! A [`Workload`] is a trace reduced to its distinct address sets, each with the number of
//! warp accesses that issue it. The cost of a hash is the DMM congestion of every access
//! (identical addresses merge, as in [`crate::congestion`]): the total replays
//! `sum(congestion - 1)` and the mean congestion per warp access.

use crate::search::trace::Trace;
use crate::Geometry;
use std::collections::BTreeMap;

/// One distinct set of addresses and how many warp accesses issue it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightedSet {
    /// The distinct addresses, ascending.
    pub addresses: Vec<u64>,
    /// Warp accesses in the trace with exactly this set.
    pub weight: u64,
}

/// A trace as the searches see it: distinct address sets with multiplicities, in order of
/// first appearance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workload {
    geometry: Geometry,
    sets: Vec<WeightedSet>,
    accesses: u64,
}

/// Bank conflicts of a workload under one hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cost {
    /// Total replays: the sum over warp accesses of `congestion - 1`.
    pub replays: u64,
    /// The sum over warp accesses of the congestion.
    pub congestion_sum: u64,
    /// Warp accesses.
    pub accesses: u64,
}

impl Cost {
    /// Mean congestion per warp access (1.0 is conflict-free).
    pub fn mean_congestion(&self) -> f64 {
        self.congestion_sum as f64 / self.accesses.max(1) as f64
    }

    /// Percentage of `before`'s replays that this cost removes (100 when `before` has none).
    pub fn removed_percent(&self, before: &Cost) -> f64 {
        if before.replays == 0 {
            100.0
        } else {
            100.0 * (before.replays as f64 - self.replays as f64) / before.replays as f64
        }
    }
}

impl Workload {
    /// Groups the trace's accesses by their set of distinct addresses.
    pub fn new(geometry: Geometry, trace: &Trace) -> Self {
        let mut index: BTreeMap<Vec<u64>, usize> = BTreeMap::new();
        let mut sets: Vec<WeightedSet> = Vec::new();
        for access in &trace.accesses {
            let mut addresses = access.addresses.clone();
            addresses.sort_unstable();
            addresses.dedup();
            match index.get(&addresses) {
                Some(&i) => sets[i].weight += 1,
                None => {
                    index.insert(addresses.clone(), sets.len());
                    sets.push(WeightedSet {
                        addresses,
                        weight: 1,
                    });
                }
            }
        }
        Self {
            geometry,
            sets,
            accesses: trace.accesses.len() as u64,
        }
    }

    /// The memory shape.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The distinct address sets.
    pub fn sets(&self) -> &[WeightedSet] {
        &self.sets
    }

    /// Warp accesses in the trace.
    pub fn accesses(&self) -> u64 {
        self.accesses
    }

    /// The cost under `bank_of`, which must return banks below `2^m`.
    pub fn cost(&self, bank_of: impl Fn(u64) -> u64) -> Cost {
        let mut loads = vec![0u32; self.geometry.banks() as usize];
        let mut cost = Cost {
            accesses: self.accesses,
            ..Cost::default()
        };
        for set in &self.sets {
            let mut worst = 0;
            for &a in &set.addresses {
                let load = &mut loads[bank_of(a) as usize];
                *load += 1;
                worst = worst.max(*load);
            }
            for &a in &set.addresses {
                loads[bank_of(a) as usize] = 0;
            }
            cost.congestion_sum += set.weight * u64::from(worst);
            cost.replays += set.weight * u64::from(worst.saturating_sub(1));
        }
        cost
    }

    /// The least cost any hash can reach: a set of `d` distinct addresses needs at least
    /// `ceil(d / 2^m)` bank cycles.
    pub fn lower_bound(&self) -> Cost {
        let banks = self.geometry.banks() as usize;
        let mut cost = Cost {
            accesses: self.accesses,
            ..Cost::default()
        };
        for set in &self.sets {
            let least = set.addresses.len().div_ceil(banks) as u64;
            cost.congestion_sum += set.weight * least;
            cost.replays += set.weight * least.saturating_sub(1);
        }
        cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::trace::Access;

    fn trace(lines: &[&[u64]]) -> Trace {
        Trace {
            accesses: lines
                .iter()
                .map(|a| Access {
                    label: "x".into(),
                    addresses: a.to_vec(),
                })
                .collect(),
        }
    }

    #[test]
    fn groups_repeated_sets_and_counts_replays() {
        let g = Geometry::new(6, 4).unwrap();
        // {0, 4, 8} all in bank 0 (congestion 3); {1, 2} conflict-free; the first set repeats
        // in another order with a duplicate address.
        let w = Workload::new(g, &trace(&[&[0, 4, 8], &[1, 2], &[8, 0, 4, 4]]));
        assert_eq!(w.sets().len(), 2);
        assert_eq!(w.sets()[0].weight, 2);
        let c = w.cost(|a| a % 4);
        assert_eq!(c.replays, 2 + 2);
        assert_eq!(c.congestion_sum, 3 + 1 + 3);
        assert!((c.mean_congestion() - 7.0 / 3.0).abs() < 1e-12);
        // Three addresses over four banks: one cycle each at best.
        assert_eq!(w.lower_bound().replays, 0);
        assert_eq!(c.removed_percent(&c), 0.0);
        assert_eq!(w.lower_bound().removed_percent(&c), 100.0);
    }
}
