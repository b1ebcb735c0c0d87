//! Properties of the golden hash functions over random configurations.

use models::{Geometry, HashConfig, HashFunction};
use proptest::prelude::*;

/// A random valid hash configuration of any family and any supported shape.
fn any_config() -> impl Strategy<Value = HashConfig> {
    (1u32..=64, 1u32..=16)
        .prop_filter("m <= n", |(n, m)| m <= n)
        .prop_flat_map(|(n, m)| {
            let g = Geometry::new(n, 1 << m).unwrap();
            let bit = 0..n;
            let function = prop_oneof![
                Just(HashFunction::Modulo),
                (0..=n - m).prop_map(|k| HashFunction::BitvectorPerm { k }),
                (0..=n - m, 0..n, 0..(1u64 << m))
                    .prop_map(|(k1, k2, mask)| HashFunction::BitvectorXor { k1, k2, mask }),
                Just((0..n).collect::<Vec<u32>>())
                    .prop_shuffle()
                    .prop_map(move |mut all| {
                        all.truncate(m as usize);
                        HashFunction::BitwisePerm { bits: all }
                    }),
                proptest::collection::btree_set(
                    (bit.clone(), bit.clone()).prop_map(|(a, b)| (a.min(b), a.max(b))),
                    m as usize
                )
                .prop_map(|s| HashFunction::BitwiseXor {
                    pairs: s.into_iter().collect()
                }),
                proptest::collection::vec(any::<u64>(), m as usize).prop_map(move |rows| {
                    HashFunction::XorMatrix {
                        rows: rows.into_iter().map(|r| r & g.addr_mask()).collect(),
                    }
                }),
            ];
            function.prop_map(move |f| HashConfig::new(g, f).unwrap())
        })
}

proptest! {
    /// Each family's own formula and its GF(2) matrix agree on every address.
    #[test]
    fn matrix_form_matches_the_formula(cfg in any_config(), addrs in proptest::collection::vec(any::<u64>(), 32)) {
        let matrix = cfg.to_matrix();
        for a in addrs {
            prop_assert_eq!(cfg.bank(a), matrix.apply(a & cfg.geometry().addr_mask()));
        }
    }

    /// The bank is always below the bank count, and the hash is linear over GF(2).
    #[test]
    fn banks_are_in_range_and_linear(cfg in any_config(), a in any::<u64>(), b in any::<u64>()) {
        prop_assert!(cfg.bank(a) < cfg.geometry().banks());
        prop_assert_eq!(cfg.bank(a ^ b), cfg.bank(a) ^ cfg.bank(b));
    }

    /// Validated permutation-like families are full rank: every bank is reachable.
    #[test]
    fn permutations_are_full_rank(cfg in any_config()) {
        use models::HashKind::*;
        if matches!(cfg.kind(), Modulo | BitvectorPerm | BitwisePerm) {
            prop_assert!(cfg.check_full_rank().is_ok());
        }
    }
}
