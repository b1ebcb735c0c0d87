//! Running the search for a map: the families and heuristics a search runs, the bound on its
//! size, checked before it starts, and the best configuration of one family for a trace (what `rtl-gen search` reports and what
//! `rtl-gen smem --replay-search` programs).

use crate::limits;
use crate::Error;
use models::search::{best, best_per_kind, plan, search, Heuristic, Trace, Workload};
use models::{Geometry, HashConfig, HashFunction, HashKind};

/// The command-line flag a too-large search is blamed on, with its value, and what the user
/// can change: `rtl-gen search` sets the address bits itself (`--addr-bits`), `rtl-gen smem`
/// through `--depth` and `--banks`.
pub struct SearchSizeFlag<'a> {
    /// The flag named in the refusal.
    pub flag: &'static str,
    /// Its value.
    pub value: String,
    /// What to restrict or lower, ending the refusal.
    pub remedy: &'a str,
}

impl SearchSizeFlag<'static> {
    /// The blame of `rtl-gen search` (and of the Python package's `search`): `--addr-bits`.
    pub fn addr_bits(addr_bits: u32) -> Self {
        Self {
            flag: "--addr-bits",
            value: addr_bits.to_string(),
            remedy: "restrict --kinds or --heuristic, or lower --addr-bits or --banks",
        }
    }
}

/// Refuses, before any search runs, a search whose estimated work
/// ([`limits::search_work`]) is above [`limits::MAX_SEARCH_WORK`], naming `blame`'s flag, the
/// costliest family and heuristic and what to change.
pub fn check_space(
    traces: &[(String, Trace)],
    geometry: Geometry,
    plan: &[(HashKind, Heuristic)],
    blame: &SearchSizeFlag<'_>,
) -> Result<(), Error> {
    let (n, m) = (geometry.addr_bits(), geometry.bank_bits());
    let addresses: u64 = traces
        .iter()
        .map(|(_, t)| {
            Workload::new(geometry, t)
                .sets()
                .iter()
                .map(|s| s.addresses.len() as u64)
                .sum::<u64>()
        })
        .fold(0, u64::saturating_add);
    let work =
        |&(k, h): &(HashKind, Heuristic)| limits::search_work_in_plan(k, h, plan, n, m, addresses);
    let total = plan.iter().map(work).fold(0, u64::saturating_add);
    if total <= limits::MAX_SEARCH_WORK {
        return Ok(());
    }
    let costliest = plan.iter().max_by_key(|p| work(p)).copied();
    let (kind, heuristic) = costliest.unwrap_or_else(|| unreachable!("a plan is never empty"));
    Err(Error::BadFlag {
        flag: blame.flag,
        value: blame.value.clone(),
        message: format!(
            "the search space is too large: about {total} address evaluations at {n} address bits \
             and {} banks over {addresses} trace addresses, at most {} (about a minute); the \
             costliest is {kind} {heuristic}: {} (docs/LIMITS.md)",
            geometry.banks(),
            limits::MAX_SEARCH_WORK,
            blame.remedy
        ),
    })
}

/// The (family, heuristic) pairs of `kinds` under `heuristic` (`None`: every one that applies);
/// refused (by the model, naming the pairs allowed) when none applies.
pub fn plan_for(
    kinds: &[HashKind],
    heuristic: Option<Heuristic>,
) -> Result<Vec<(HashKind, Heuristic)>, Error> {
    if kinds.len() == HashKind::ALL.len() {
        return Ok(plan(None, heuristic)?);
    }
    let pairs: Vec<(HashKind, Heuristic)> = kinds
        .iter()
        .filter_map(|&k| plan(Some(k), heuristic).ok())
        .flatten()
        .collect();
    match kinds.first() {
        Some(&first) if pairs.is_empty() => Ok(plan(Some(first), heuristic)?),
        _ => Ok(pairs),
    }
}

/// The plan of a whole search: every family under every heuristic that configures it.
pub fn full_plan() -> Vec<(HashKind, Heuristic)> {
    plan(None, None).unwrap_or_else(|e| unreachable!("the whole plan is valid: {e}"))
}

/// The best configuration of `kind` the whole search finds for `trace`; for `xor-matrix`, the
/// best of every family written as a matrix (a matrix can hold any of them).
pub fn best_config(trace: &Trace, geometry: Geometry, kind: HashKind) -> HashConfig {
    let report = search(trace, geometry, &full_plan());
    let found = if kind == HashKind::XorMatrix {
        best(&report.found)
    } else {
        best_per_kind(&report.found)
            .into_iter()
            .find(|f| f.kind() == kind)
    };
    let found = found.unwrap_or_else(|| unreachable!("every family is searched"));
    if kind == HashKind::XorMatrix {
        let rows = found.candidate.config.to_matrix().rows().to_vec();
        HashConfig::new(geometry, HashFunction::XorMatrix { rows })
            .unwrap_or_else(|e| unreachable!("a searched matrix is valid: {e}"))
    } else {
        found.candidate.config.clone()
    }
}
