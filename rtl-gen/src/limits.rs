//! The largest value every count a user gives may take, in one place, each derived from the
//! memory and time it costs (measured on the project's 2-core machine; docs/LIMITS.md). A value
//! past its limit is refused before any work, in one line naming the flag, the value and the
//! limit; sums and products of user values use checked arithmetic.

use crate::Error;

/// Test vectors of one testbench (`hash --vectors`, `rap --vectors`). The vectors are held in
/// memory while their files are written: about 210 bytes each for a 64-bit hasher and 700 for
/// a loadable RAP converter of w = 256 (measured peak RSS), so at most about 1.4 GB, and about
/// 4 s of generation per million; a Verilator run checks about a million a second.
pub const MAX_VECTORS: u64 = 2_000_000;

/// Vectors of one DPI-C co-simulation (`cosim --fast --vectors`). The golden model draws and
/// checks each vector while the simulation runs, so nothing is held per vector and the bound is
/// time: about 6.5 M vectors per CPU second for the Fermi configurable bitwise XOR and 6.3 M for
/// the largest hasher (docs/BENCHMARKS.md), so 10^10 vectors is about half an hour.
pub const MAX_FAST_VECTORS: u64 = 10_000_000_000;

/// Configurations a configurable hasher is checked over (`hash --configs`). Each adds at least
/// one vector, so the testbench holds at most `--vectors + --configs` vectors.
pub const MAX_CONFIGS: u64 = 100_000;

/// Random transfers, loads or cycles of a D²MA testbench (`d2ma --vectors`, formerly
/// `--random`). The AGEN's random transfers are the costliest: 20 000 gave 581 385 vectors,
/// 523 MB and 6.3 s, so 50 000 is about 1.5 M vectors, 1.3 GB and 16 s.
pub const MAX_D2MA_RANDOM: u64 = 50_000;

/// Trials of one congestion cell (`congestion --trials`). Well inside the simulator's own bound
/// (`models::rap::rng::MAX_TRIALS`, 2^44, where the per-trial random streams would overlap).
pub const MAX_TRIALS: u64 = 1_000_000_000;
const _: () = assert!(MAX_TRIALS <= models::rap::rng::MAX_TRIALS);

/// The work of one `congestion` run: the sum over its cells of trials x w (`--dims 2`, one warp
/// of w threads a trial) or trials x w^2 (`--dims 4`). Measured at about 25 ns per unit on two
/// threads (dims 2: 6 M warps of mean w 99 in 15.8 s; dims 4, w = 64: 42 000 warps in 4.1 s),
/// so the limit is about 10 minutes.
pub const MAX_CONGESTION_WORK: u64 = 25_000_000_000;

/// The work of one `search`: address evaluations, the size of each heuristic's space times the
/// addresses of the trace's distinct warp accesses (see [`search_work`]). The exhaustive search
/// measured about 1 ns per evaluation, so the limit is about a minute.
pub const MAX_SEARCH_WORK: u64 = 60_000_000_000;

/// Delay targets of one `sweep targets`. Each is one synthesis per kind (3 to 4 s with NanGate45
/// while other builds loaded the machine, less idle), so 1000 targets of the four kinds is a few
/// hours at most.
pub const MAX_TARGETS: u64 = 1000;

/// Points of one `sweep hash` (kinds x address widths x bank counts). Each is a generated block
/// folder and one Yosys run (about 0.15 CPU s for small generic-flow points, seconds with a
/// liberty file or wide hashers) and one job of an emitted sweep, so 10 000 points is hours at
/// most and a job file of about a MB.
pub const MAX_SWEEP_POINTS: u64 = 10_000;

/// Random warp accesses of a shared memory's testbench (`smem --vectors`), after its directed
/// phases. Each adds about two cycles, one vector each, of up to about 1.3 kB at 64 lanes of
/// 8-byte words (RAM while the files are written, then hex text): 200 000 is about 400 000
/// vectors, well under a GB.
pub const MAX_SMEM_RANDOM: u64 = 200_000;

/// Warp accesses replayed through a shared memory's RTL in all (`smem --replay`, every trace
/// together): each is one line of the replay's access file and one of its expected file, read
/// into the simulator's memory, and at least one simulated cycle; the whole kernel suite
/// (`kernels/`) holds 1 552.
pub const MAX_REPLAY_ACCESSES: u64 = 2_000_000;

/// The largest delay target (`synth --target-ps`, `sweep targets --targets`): 10^9 ps (1 ms,
/// a 1 kHz clock). ABC maps for targets up to 10^10 ps and fails from about 10^15 ps on (it
/// writes no netlist).
pub const MAX_TARGET_PS: f64 = 1e9;

/// Reads a delay target given to `flag`: a positive number of ps, at most [`MAX_TARGET_PS`].
pub fn delay_target(flag: &'static str, text: &str) -> Result<f64, Error> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|t| *t > 0.0 && *t <= MAX_TARGET_PS)
        .ok_or_else(|| Error::BadFlag {
            flag,
            value: text.to_string(),
            message: format!(
                "not a delay target (a positive number of ps up to {MAX_TARGET_PS:e}, e.g. 150)"
            ),
        })
}

/// Refuses `value` for `flag` when it is above `max`; `what` says what the limit protects.
pub fn check(flag: &'static str, value: u64, max: u64, what: &str) -> Result<(), Error> {
    if value > max {
        return Err(Error::BadFlag {
            flag,
            value: value.to_string(),
            message: format!("at most {max} ({what}; docs/LIMITS.md)"),
        });
    }
    Ok(())
}

/// Refuses a `--vectors` of one testbench above [`MAX_VECTORS`] (`hash`, `rap`).
pub fn check_vectors(vectors: usize) -> Result<(), Error> {
    check(
        "--vectors",
        vectors as u64,
        MAX_VECTORS,
        "vectors held in memory",
    )
}

/// The work of a congestion run (see [`MAX_CONGESTION_WORK`]) for `trials` per cell over cells
/// of the given widths at `dims`, or `None` if it overflows `u64` (then it is over the limit).
pub fn congestion_work(
    trials: u64,
    dims: u32,
    widths: impl IntoIterator<Item = u32>,
) -> Option<u64> {
    widths.into_iter().try_fold(0u64, |sum, w| {
        let per_trial = if dims == 4 {
            u64::from(w).checked_mul(u64::from(w))?
        } else {
            u64::from(w)
        };
        sum.checked_add(trials.checked_mul(per_trial)?)
    })
}

/// Refuses, before it starts, a congestion run of `trials` per cell over `cells` (all of one
/// `dims`): no trials, more than [`MAX_TRIALS`], or more work than [`MAX_CONGESTION_WORK`]
/// ([`congestion_work`]), each named against `--trials`.
pub fn check_congestion_run(
    trials: u64,
    dims: u32,
    cells: &[models::rap::Cell],
) -> Result<(), Error> {
    let refuse = |message: String| Error::BadFlag {
        flag: "--trials",
        value: trials.to_string(),
        message,
    };
    if trials == 0 {
        return Err(refuse("at least one trial per cell".into()));
    }
    check("--trials", trials, MAX_TRIALS, "trials per cell")?;
    let work = congestion_work(trials, dims, cells.iter().map(|c| c.shape.w())).unwrap_or(u64::MAX);
    if work > MAX_CONGESTION_WORK {
        return Err(refuse(format!(
            "{} cells of this size need {work} units of work, at most {MAX_CONGESTION_WORK} \
             (about 10 minutes); use fewer --trials, fewer --banks or fewer cells \
             (docs/LIMITS.md)",
            cells.len(),
        )));
    }
    Ok(())
}

/// The estimated address evaluations of searching with `heuristic` for `kind` at `n` address
/// bits and `m` bank bits over a trace whose distinct warp accesses hold `addresses` addresses
/// in all, saturating at `u64::MAX`:
///
/// - exhaustive bit-vector permutation: `(n - m + 1)` configurations;
/// - exhaustive bit-vector XOR: `(n - m + 1) n 2^m` configurations (the full space is always
///   searched, besides the paper's pruned one);
/// - Givargis and MIH: `m` picks among `n` single bits or `n (n + 1) / 2` bit pairs;
/// - GF(2): `ROUNDS` hill climbs of about `m` steps over `m n` single-bit flips;
/// - fixed: one configuration;
///
/// each times `addresses` plus [`PER_CONFIGURATION`].
pub fn search_work(
    kind: models::HashKind,
    heuristic: models::search::Heuristic,
    n: u32,
    m: u32,
    addresses: u64,
) -> u64 {
    use models::search::Heuristic;
    use models::HashKind;
    let (n, m) = (u64::from(n), u64::from(m));
    let pairs = n.saturating_mul(n + 1) / 2;
    let configurations = match (heuristic, kind) {
        (Heuristic::Exhaustive, HashKind::BitvectorPerm) => n - m + 1,
        (Heuristic::Exhaustive, _) => (n - m + 1)
            .saturating_mul(n)
            .saturating_mul(1u64.checked_shl(m as u32).unwrap_or(u64::MAX)),
        (Heuristic::Givargis | Heuristic::Mih, HashKind::BitwisePerm) => n.saturating_mul(m),
        (Heuristic::Givargis | Heuristic::Mih, _) => pairs.saturating_mul(m),
        (Heuristic::Gf2, _) => (models::search::gf2::ROUNDS as u64)
            .saturating_mul(m)
            .saturating_mul(m)
            .saturating_mul(n),
        (Heuristic::Fixed, _) => 1,
    };
    configurations.saturating_mul(addresses.saturating_add(PER_CONFIGURATION))
}

/// The estimated work of the pair `(kind, heuristic)` of a search `plan` ([`search_work`]),
/// where the GF(2) search also pays for its seeds: it starts from every paper family's
/// result and runs each family's search that the plan does not ([`models::search::search`]),
/// so a GF(2) search of a space the exhaustive search cannot cover is refused too.
pub fn search_work_in_plan(
    kind: models::HashKind,
    heuristic: models::search::Heuristic,
    plan: &[(models::HashKind, models::search::Heuristic)],
    n: u32,
    m: u32,
    addresses: u64,
) -> u64 {
    let own = search_work(kind, heuristic, n, m, addresses);
    if heuristic != models::search::Heuristic::Gf2 {
        return own;
    }
    models::search::plan(None, None)
        .unwrap_or_default()
        .into_iter()
        .filter(|&(k, h)| k != models::HashKind::XorMatrix && !plan.contains(&(k, h)))
        .map(|(k, h)| search_work(k, h, n, m, addresses))
        .fold(own, u64::saturating_add)
}

/// The fixed cost of evaluating one configuration in a search, in address evaluations: building
/// the hash function and its cost tally. An estimate, generous so that a large space over a
/// short trace is refused too.
pub const PER_CONFIGURATION: u64 = 1000;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn limits_refuse_one_past() {
        assert!(check("--vectors", MAX_VECTORS, MAX_VECTORS, "memory").is_ok());
        let e = check("--vectors", MAX_VECTORS + 1, MAX_VECTORS, "memory").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--vectors 2000001: at most 2000000 (memory; docs/LIMITS.md)"
        );
    }

    #[test]
    fn search_work_of_the_papers_case_is_small() {
        use models::search::Heuristic;
        use models::HashKind;
        // n = 14, m = 5: 10 x 14 x 32 = 4480 configurations.
        assert_eq!(
            search_work(HashKind::BitvectorXor, Heuristic::Exhaustive, 14, 5, 1),
            4480 * (1 + PER_CONFIGURATION)
        );
        // n = 64, m = 16: 49 x 64 x 65536 configurations, far over the limit with any trace.
        assert!(
            search_work(HashKind::BitvectorXor, Heuristic::Exhaustive, 64, 16, 1000)
                > MAX_SEARCH_WORK
        );
    }

    #[test]
    fn the_gf2_search_pays_for_the_seeds_it_runs() {
        use models::search::{plan, Heuristic};
        use models::HashKind;
        let gf2 = (HashKind::XorMatrix, Heuristic::Gf2);
        let exhaustive = (HashKind::BitvectorXor, Heuristic::Exhaustive);
        let alone = search_work_in_plan(gf2.0, gf2.1, &[gf2], 64, 16, 5);
        // Alone, it runs the 64-bit, 65 536-bank exhaustive search for its seed: refused.
        assert!(alone > search_work(exhaustive.0, exhaustive.1, 64, 16, 5));
        assert!(alone > MAX_SEARCH_WORK);
        // With every family planned, the seeds are the plan's own results: counted once.
        let all = plan(None, None).unwrap();
        assert_eq!(
            search_work_in_plan(gf2.0, gf2.1, &all, 64, 16, 5),
            search_work(gf2.0, gf2.1, 64, 16, 5)
        );
        assert_eq!(
            search_work_in_plan(exhaustive.0, exhaustive.1, &[gf2], 64, 16, 5),
            search_work(exhaustive.0, exhaustive.1, 64, 16, 5)
        );
    }

    proptest! {
        #[test]
        fn congestion_work_never_wraps(trials in any::<u64>(), w in any::<u32>(), dims in prop_oneof![Just(2u32), Just(4u32)]) {
            // u64 x u32^2 x 3 can pass even u128, so the oracle is checked too.
            let exact = u128::from(trials)
                .checked_mul(u128::from(w).pow(dims / 2))
                .and_then(|x| x.checked_mul(3));
            match (congestion_work(trials, dims, [w, w, w]), exact) {
                (Some(work), Some(exact)) => prop_assert_eq!(u128::from(work), exact),
                (None, exact) => prop_assert!(exact.is_none_or(|x| x > u128::from(u64::MAX))),
                (Some(work), None) => prop_assert!(false, "work {work} where the product passes u128"),
            }
        }

        #[test]
        fn search_work_saturates(n in 1u32..=64, m in 0u32..=64, addresses in any::<u64>()) {
            prop_assume!(m <= n);
            for h in models::search::Heuristic::ALL {
                for k in models::HashKind::ALL {
                    let _ = search_work(k, h, n, m, addresses);
                }
            }
        }
    }
}
