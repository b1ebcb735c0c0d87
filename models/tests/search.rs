//! The configuration search against the XOR paper's worked examples, and its properties.

use models::congestion::congestion;
use models::search::classify::{classify, AccessClass};
use models::search::columns::{bit_pairs, single_bits, Column};
use models::search::givargis::givargis;
use models::search::mih::{imbalance, mih};
use models::search::{exhaustive, plan, search, Access, Detail, Heuristic, Trace, Workload};
use models::{Geometry, HashConfig, HashFunction, HashKind};
use proptest::prelude::*;

fn trace(sets: &[Vec<u64>]) -> Trace {
    Trace {
        accesses: sets
            .iter()
            .map(|a| Access {
                label: "x".into(),
                addresses: a.clone(),
            })
            .collect(),
    }
}

fn strided(stride: u64) -> Vec<u64> {
    (0..32).map(|t| stride * t).collect()
}

const FIG6: [u64; 8] = [27, 12, 6, 19, 11, 4, 28, 3];

fn bits(list: &[u32]) -> Vec<Column> {
    list.iter().map(|&a| Column { a, b: a }).collect()
}

/// Fig. 6: the imbalances of each step as the figure gives them, and the selection {0, 3, 4}.
#[test]
fn figure_6_minimum_imbalance() {
    let step = |selected: &[u32], candidates: &[u32]| -> Vec<f64> {
        candidates
            .iter()
            .map(|&i| imbalance(&FIG6, &bits(selected), Column { a: i, b: i }))
            .collect()
    };
    assert_eq!(step(&[], &[0, 1, 2, 3, 4]), vec![0.0, 0.25, 0.0, 0.0, 0.25]);
    assert_eq!(step(&[0], &[1, 2, 3, 4]), vec![0.75, 1.0, 0.0, 0.25]);
    assert_eq!(step(&[0, 3], &[1, 2, 4]), vec![0.75, 1.0, 0.25]);
    let g = Geometry::new(5, 8).unwrap();
    let w = Workload::new(g, &trace(&[FIG6.to_vec()]));
    assert_eq!(mih(&w, &single_bits(5), 3), bits(&[0, 3, 4]));
}

/// Section 5.2.1: strides 8 and 45 select {A3, A4, A5, A6, A7}; strides 8 and 13 select
/// {A3, A4, A6, A5, A7}, in that order.
#[test]
fn givargis_examples_of_section_5_2_1() {
    let g = Geometry::new(14, 32).unwrap();
    let w = Workload::new(g, &trace(&[strided(8), strided(45)]));
    assert_eq!(givargis(&w, &single_bits(14), 5), bits(&[3, 4, 5, 6, 7]));
    let w = Workload::new(g, &trace(&[strided(8), strided(13)]));
    assert_eq!(givargis(&w, &single_bits(14), 5), bits(&[3, 4, 6, 5, 7]));
}

/// Fig. 5's function (k1 = 2, k2 = 8, mask = 7) is the only conflict-free bit-vector XOR with
/// the fewest mask bits for a stride-4 warp (bits 2..6) beside a block reading bits 8..10 and
/// 5..6 (worked out by hand: k1 = 2 covers 2..6, and only k2 = 8, mask = 7 brings 8, 9, 10 in
/// on bank bits 0..2, away from 5 and 6 on bank bits 3 and 4).
#[test]
fn figure_5_function_is_found_by_the_exhaustive_search() {
    let g = Geometry::new(14, 32).unwrap();
    let block: Vec<u64> = (0..32).map(|t| 256 * (t % 8) + 32 * (t / 8)).collect();
    let t = trace(&[strided(4), block]);
    let w = Workload::new(g, &t);
    let strides: Vec<_> = t
        .accesses
        .iter()
        .flat_map(|a| classify(a).strides(a.addresses.len()))
        .collect();
    let found = exhaustive::bitvector_xor(&w, &strides);
    let fig5 = HashFunction::BitvectorXor {
        k1: 2,
        k2: 8,
        mask: 7,
    };
    assert_eq!(found.full.config.function(), &fig5);
    assert_eq!(found.full.cost.replays, 0);
    assert_eq!(found.full_space, 4480);
    assert_eq!(found.pruned.config.function(), &fig5);
    assert!(found.pruned_as_good());
}

/// Eq. 10, the Fast Walsh transform's sub-warps (bits 0-2 and 5-6): by hand, two mask bits are
/// needed and k1 = 0, k2 = 2, mask = 0b11000 (b3 = a3^a5, b4 = a4^a6) is the first such.
#[test]
fn fast_walsh_needs_two_mask_bits() {
    let g = Geometry::new(14, 32).unwrap();
    let fwt: Vec<u64> = (0..32).map(|t| 32 * (t / 8) + t % 8).collect();
    let t = trace(&[fwt]);
    let found = exhaustive::bitvector_xor(&Workload::new(g, &t), &[]);
    assert_eq!(
        found.full.config.function(),
        &HashFunction::BitvectorXor {
            k1: 0,
            k2: 2,
            mask: 0b11000
        }
    );
    assert_eq!(
        found.pruned_space, 4480,
        "no stride given: the pruned space is the full one"
    );
}

/// A power-of-two stride with one k: the search returns the bit-vector permutation k1 = k,
/// mask = 0, as section 5.1 says.
#[test]
fn single_k_gives_a_permutation() {
    let g = Geometry::new(14, 32).unwrap();
    let r = search(
        &trace(&[strided(16)]),
        g,
        &plan(Some(HashKind::BitvectorXor), Some(Heuristic::Exhaustive)).unwrap(),
    );
    assert_eq!(
        r.found[0].candidate.config.function(),
        &HashFunction::BitvectorXor {
            k1: 4,
            k2: 0,
            mask: 0
        }
    );
    assert_eq!(r.before.replays, 15);
}

/// The transpose store of section 3.2.2 (8-way under modulo) and the GF(2) search's exact part.
#[test]
fn gf2_is_exact_on_affine_accesses() {
    let g = Geometry::new(14, 32).unwrap();
    let store: Vec<u64> = (0..32).map(|t| (t % 16) * 16 + t / 16).collect();
    let fwt: Vec<u64> = (0..32).map(|t| 32 * (t / 8) + t % 8).collect();
    let r = search(
        &trace(&[store, fwt, strided(64)]),
        g,
        &plan(Some(HashKind::XorMatrix), None).unwrap(),
    );
    assert_eq!(r.before.replays, 7 + 3 + 31);
    let f = &r.found[0];
    assert_eq!(f.candidate.cost.replays, 0);
    match f.detail {
        Detail::Gf2 {
            affine_sets,
            optimal,
            ..
        } => {
            assert_eq!(affine_sets, 3);
            assert!(optimal);
        }
        _ => panic!("gf2 detail expected"),
    }
}

#[test]
fn plan_refuses_heuristics_of_other_families() {
    let e = plan(Some(HashKind::BitvectorXor), Some(Heuristic::Mih))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("heuristic = mih") && e.contains("bitvector-xor exhaustive"),
        "{e}"
    );
    assert_eq!(plan(None, None).unwrap().len(), 8);
    assert_eq!(plan(None, Some(Heuristic::Mih)).unwrap().len(), 2);
}

#[test]
fn pair_candidates_can_reach_xor_solutions() {
    // Stride 32 over 32 threads uses bits 5..9 only; MIH over pairs must pick five
    // independent bank bits that split all 32 addresses.
    let g = Geometry::new(14, 32).unwrap();
    let w = Workload::new(g, &trace(&[strided(32), (0..32).collect()]));
    let chosen = mih(&w, &bit_pairs(14), 5);
    let config = HashConfig::new(
        g,
        HashFunction::BitwiseXor {
            pairs: chosen.iter().map(|c| (c.a, c.b)).collect(),
        },
    )
    .unwrap();
    assert_eq!(w.cost(|a| config.bank(a)).replays, 0);
    assert_eq!(
        classify(&Access {
            label: "x".into(),
            addresses: strided(32)
        }),
        AccessClass::Stride { stride: 32 }
    );
}

/// Random small traces: warps of strided, block or random accesses on 8 address bits, 8 banks.
fn small_trace() -> impl Strategy<Value = Trace> {
    let access = prop_oneof![
        (0u64..256, 1u64..40, 2usize..9).prop_map(|(o, s, t)| (0..t as u64)
            .map(|i| (o + s * i) % 256)
            .collect::<Vec<u64>>()),
        (1usize..5, 1u64..9, 1u64..70).prop_map(|(w, sx, sy)| (0..8u64)
            .map(|t| (sy * (t / w as u64) + sx * (t % w as u64)) % 256)
            .collect()),
        proptest::collection::vec(0u64..256, 1..9),
    ];
    proptest::collection::vec(access, 1..6).prop_map(|sets| trace(&sets))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The GF(2) search is never worse than any paper family, every configuration is full rank,
    /// and every reported cost matches the DMM congestion recomputed line by line.
    #[test]
    fn gf2_never_worse_and_costs_recomputed(t in small_trace()) {
        let g = Geometry::new(8, 8).unwrap();
        let r = search(&t, g, &plan(None, None).unwrap());
        let gf2 = r.found.iter().find(|f| f.heuristic == Heuristic::Gf2).unwrap();
        for f in &r.found {
            prop_assert!(gf2.candidate.cost.replays <= f.candidate.cost.replays);
            prop_assert!(f.candidate.config.check_full_rank().is_ok());
            let replays: u64 = t.accesses.iter()
                .map(|a| u64::from(congestion(&a.addresses, |x| f.candidate.config.bank(x)) - 1))
                .sum();
            prop_assert_eq!(replays, f.candidate.cost.replays);
            prop_assert!(f.candidate.cost.replays >= r.lower_bound.replays);
        }
        let before: u64 = t.accesses.iter().map(|a| u64::from(congestion(&a.addresses, |x| x % 8) - 1)).sum();
        prop_assert_eq!(before, r.before.replays);
    }

    /// The full bit-vector XOR search is at least as good as its pruned space and as any
    /// bit-vector XOR configuration of full rank.
    #[test]
    fn exhaustive_beats_every_bitvector_xor(t in small_trace(), k1 in 0u32..6, k2 in 0u32..8, mask in 0u64..8) {
        let g = Geometry::new(8, 8).unwrap();
        let r = search(&t, g, &plan(Some(HashKind::BitvectorXor), Some(Heuristic::Exhaustive)).unwrap());
        let f = &r.found[0];
        if let Detail::Pruned { pruned, .. } = &f.detail {
            prop_assert!(f.candidate.cost.replays <= pruned.cost.replays);
        }
        let other = HashConfig::new(g, HashFunction::BitvectorXor { k1, k2, mask }).unwrap();
        if other.check_full_rank().is_ok() {
            let w = Workload::new(g, &t);
            prop_assert!(f.candidate.cost.replays <= w.cost(|a| other.bank(a)).replays);
        }
    }
}
