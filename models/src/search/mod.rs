//! Hash configuration search (the XOR paper's sections 5 and 6): from a kernel's warp accesses
//! to the configuration of each hash family that removes the most bank conflicts.
//!
//! - [`trace`]: the trace format, one warp access per line;
//! - [`classify`](mod@classify): linear, stride, block and random accesses (section 3.1);
//! - [`cost`]: distinct access sets with multiplicities, replays and mean congestion;
//! - [`exhaustive`]: bit-vector permutation and XOR, full and pruned (section 5.1);
//! - [`columns`]: the candidate bank bits of the bitwise heuristics (Table 3);
//! - [`givargis`], [`mih`]: the two heuristics for several reference sets (section 5.2);
//! - [`gf2`]: the general `xor-matrix` search, exact on affine-subspace accesses;
//! - [`kernels`]: the synthetic kernel suite.
//!
//! [`search`] runs a plan of (family, heuristic) pairs. Every search minimises the total
//! replays; each module documents its own tie-breaking. Across families, [`best`] prefers the
//! fewest replays, then the cheaper family in hardware (the order of [`HashKind::ALL`]), then
//! the heuristic listed first in [`Heuristic::ALL`].

pub mod classify;
pub mod columns;
pub mod cost;
pub mod exhaustive;
pub mod gf2;
pub mod givargis;
pub mod kernels;
pub mod mih;
pub mod trace;

pub use cost::{Cost, Workload};
pub use trace::{Access, Trace, TraceError};

use crate::{Error, Geometry, HashConfig, HashFunction, HashKind};
use classify::{classify, AccessClass, StrideSpan};
use exhaustive::BitvectorXorSearch;
use gf2::Gf2Search;
use std::fmt;
use std::str::FromStr;

/// How a configuration is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Heuristic {
    /// Every configuration of a bit-vector family (section 5.1).
    Exhaustive,
    /// The fixed XOR of \[17\], `addr[0..m) ^ addr[m..2m)`: a reference, not a search.
    Fixed,
    /// The Givargis heuristic, summed over reference sets (section 5.2.1).
    Givargis,
    /// The Minimum Imbalance Heuristic, Eq. 15 (section 5.2.2).
    Mih,
    /// The GF(2) matrix search ([`gf2`]).
    Gf2,
}

impl Heuristic {
    /// Every heuristic, in the order results are listed.
    pub const ALL: [Heuristic; 5] = [
        Heuristic::Exhaustive,
        Heuristic::Fixed,
        Heuristic::Givargis,
        Heuristic::Mih,
        Heuristic::Gf2,
    ];

    /// The name on the command line and in file names.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Exhaustive => "exhaustive",
            Heuristic::Fixed => "fixed",
            Heuristic::Givargis => "givargis",
            Heuristic::Mih => "mih",
            Heuristic::Gf2 => "gf2",
        }
    }

    /// Whether this heuristic configures `kind`.
    pub fn applies_to(self, kind: HashKind) -> bool {
        matches!(
            (kind, self),
            (HashKind::BitvectorPerm, Heuristic::Exhaustive)
                | (
                    HashKind::BitvectorXor,
                    Heuristic::Exhaustive | Heuristic::Fixed
                )
                | (
                    HashKind::BitwisePerm | HashKind::BitwiseXor,
                    Heuristic::Givargis | Heuristic::Mih
                )
                | (HashKind::XorMatrix, Heuristic::Gf2)
        )
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Heuristic {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Heuristic::ALL
            .into_iter()
            .find(|h| h.name() == s)
            .ok_or_else(|| Error::OutOfRange {
                name: "heuristic".into(),
                value: s.into(),
                allowed: Heuristic::ALL.map(Heuristic::name).join(", "),
            })
    }
}

/// A configuration and its cost on the workload.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The configuration (always of full rank).
    pub config: HashConfig,
    /// Its bank conflicts.
    pub cost: Cost,
}

/// What a search reports beyond its configuration.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    /// Nothing more.
    None,
    /// The bit-vector XOR search: the pruned search beside the full one.
    Pruned {
        /// Configurations in the full space.
        full_space: u64,
        /// Configurations in the pruned space.
        pruned_space: u64,
        /// The pruned search's best.
        pruned: Candidate,
    },
    /// The GF(2) search's conclusions.
    Gf2 {
        /// Distinct access sets that are affine subspaces.
        affine_sets: usize,
        /// Distinct access sets.
        sets: usize,
        /// The exact search's conclusion.
        exact: gf2::Exact,
        /// Whether no hash can do better.
        optimal: bool,
    },
}

/// One (family, heuristic) result.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The heuristic that found it.
    pub heuristic: Heuristic,
    /// The configuration and its cost.
    pub candidate: Candidate,
    /// Search-specific figures.
    pub detail: Detail,
}

impl Found {
    /// The family.
    pub fn kind(&self) -> HashKind {
        self.candidate.config.kind()
    }
}

/// Everything a search of one trace produces.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The workload searched.
    pub workload: Workload,
    /// The class of every warp access, in trace order.
    pub classes: Vec<AccessClass>,
    /// The baseline (`modulo`) cost.
    pub before: Cost,
    /// The least cost any hash can reach.
    pub lower_bound: Cost,
    /// One result per planned (family, heuristic), in plan order.
    pub found: Vec<Found>,
}

/// The (family, heuristic) pairs to run: `None` means all. A heuristic that configures none of
/// the chosen families is refused.
pub fn plan(
    kind: Option<HashKind>,
    heuristic: Option<Heuristic>,
) -> Result<Vec<(HashKind, Heuristic)>, Error> {
    let pairs: Vec<(HashKind, Heuristic)> = HashKind::ALL
        .into_iter()
        .filter(|&k| kind.is_none_or(|want| want == k))
        .flat_map(|k| {
            Heuristic::ALL
                .into_iter()
                .filter(move |&h| h.applies_to(k) && heuristic.is_none_or(|want| want == h))
                .map(move |h| (k, h))
        })
        .collect();
    if pairs.is_empty() {
        let allowed: Vec<String> = HashKind::ALL
            .into_iter()
            .filter(|&k| kind.is_none_or(|want| want == k))
            .flat_map(|k| {
                Heuristic::ALL
                    .into_iter()
                    .filter(move |h| h.applies_to(k))
                    .map(move |h| format!("{k} {h}"))
            })
            .collect();
        return Err(Error::OutOfRange {
            name: "heuristic".into(),
            value: heuristic.map_or("all", Heuristic::name).into(),
            allowed: if allowed.is_empty() {
                "none: modulo has nothing to search".into()
            } else {
                format!("the pairs {}", allowed.join(", "))
            },
        });
    }
    Ok(pairs)
}

fn bitwise(workload: &Workload, kind: HashKind, heuristic: Heuristic) -> Candidate {
    let g = workload.geometry();
    let (n, m) = (g.addr_bits(), g.bank_bits());
    let candidates = match kind {
        HashKind::BitwisePerm => columns::single_bits(n),
        _ => columns::bit_pairs(n),
    };
    let chosen = match heuristic {
        Heuristic::Givargis => givargis::givargis(workload, &candidates, m),
        _ => mih::mih(workload, &candidates, m),
    };
    let function = match kind {
        HashKind::BitwisePerm => HashFunction::BitwisePerm {
            bits: chosen.iter().map(|c| c.a).collect(),
        },
        _ => HashFunction::BitwiseXor {
            pairs: chosen.iter().map(|c| (c.a, c.b)).collect(),
        },
    };
    let config = HashConfig::new(g, function)
        .unwrap_or_else(|e| unreachable!("heuristics pick distinct bits below n: {e}"));
    let cost = workload.cost(|a| config.bank(a));
    Candidate { config, cost }
}

/// The fixed XOR of \[17\]: `bank = addr[0..m) ^ addr[m..2m)`; `None` when `n = m`.
pub fn fixed_xor(geometry: Geometry) -> Option<HashConfig> {
    let m = geometry.bank_bits();
    HashConfig::new(
        geometry,
        HashFunction::BitvectorXor {
            k1: 0,
            k2: m,
            mask: geometry.bank_mask(),
        },
    )
    .ok()
}

/// Every stride of the trace's accesses, for the bit-vector search's pruning.
fn strides(trace: &Trace, classes: &[AccessClass]) -> Vec<StrideSpan> {
    trace
        .accesses
        .iter()
        .zip(classes)
        .flat_map(|(a, c)| c.strides(a.addresses.len()))
        .collect()
}

/// Runs `plan` on a trace. The GF(2) search is seeded with every paper family's result, run
/// here even when the plan does not list them.
pub fn search(trace: &Trace, geometry: Geometry, plan: &[(HashKind, Heuristic)]) -> Report {
    let workload = Workload::new(geometry, trace);
    let classes: Vec<AccessClass> = trace.accesses.iter().map(classify).collect();
    let strides = strides(trace, &classes);
    let run = |kind: HashKind, heuristic: Heuristic| -> Option<Found> {
        let plain = |candidate| Found {
            heuristic,
            candidate,
            detail: Detail::None,
        };
        Some(match (kind, heuristic) {
            (HashKind::BitvectorPerm, _) => plain(exhaustive::bitvector_perm(&workload)),
            (HashKind::BitvectorXor, Heuristic::Fixed) => {
                let config = fixed_xor(geometry)?;
                let cost = workload.cost(|a| config.bank(a));
                plain(Candidate { config, cost })
            }
            (HashKind::BitvectorXor, _) => {
                let BitvectorXorSearch {
                    full,
                    full_space,
                    pruned,
                    pruned_space,
                } = exhaustive::bitvector_xor(&workload, &strides);
                Found {
                    heuristic,
                    candidate: full,
                    detail: Detail::Pruned {
                        full_space,
                        pruned_space,
                        pruned,
                    },
                }
            }
            (HashKind::BitwisePerm | HashKind::BitwiseXor, h) => plain(bitwise(&workload, kind, h)),
            _ => return None,
        })
    };
    let mut found: Vec<Found> = plan
        .iter()
        .filter(|(k, _)| *k != HashKind::XorMatrix)
        .filter_map(|&(k, h)| run(k, h))
        .collect();
    if plan.iter().any(|(k, _)| *k == HashKind::XorMatrix) {
        let mut seeds: Vec<Candidate> = found.iter().map(|f| f.candidate.clone()).collect();
        for (k, h) in self::plan(None, None).unwrap_or_default() {
            if k != HashKind::XorMatrix && !plan.contains(&(k, h)) {
                seeds.extend(run(k, h).map(|f| f.candidate));
            }
        }
        let Gf2Search {
            best,
            affine_sets,
            sets,
            exact,
            optimal,
        } = gf2::gf2(&workload, &seeds);
        found.push(Found {
            heuristic: Heuristic::Gf2,
            candidate: best,
            detail: Detail::Gf2 {
                affine_sets,
                sets,
                exact,
                optimal,
            },
        });
    }
    let modulo = HashConfig::new(geometry, HashFunction::Modulo)
        .unwrap_or_else(|e| unreachable!("modulo fits every shape: {e}"));
    Report {
        before: workload.cost(|a| modulo.bank(a)),
        lower_bound: workload.lower_bound(),
        classes,
        workload,
        found,
    }
}

/// The best result: fewest replays, then the cheaper family, then the heuristic listed first.
pub fn best(found: &[Found]) -> Option<&Found> {
    found
        .iter()
        .min_by_key(|f| (f.candidate.cost.replays, f.kind(), f.heuristic))
}

/// The best result of each family, in family order, with the same preferences as [`best`].
pub fn best_per_kind(found: &[Found]) -> Vec<&Found> {
    HashKind::ALL
        .into_iter()
        .filter_map(|k| {
            let of_kind: Vec<Found> = found.iter().filter(|f| f.kind() == k).cloned().collect();
            best(&of_kind).and_then(|b| found.iter().find(|f| *f == b))
        })
        .collect()
}
