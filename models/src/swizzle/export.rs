//! From an address map back to the forms people write: every exact form, most specific first,
//! and the hash configuration that gives the same banks in hardware.

use super::layout::{bank_groups, CuteSwizzle, CuteUnit, Layout, TmaMode, TritonSwizzle};
use super::map::AddressMap;
use super::tile::Tile;
use crate::{Geometry, HashConfig, HashFunction};

/// The CuTe swizzles on byte offsets (`S > 0`) whose map on `tile` is `map`, fewest mask bits
/// first.
fn cute_forms(map: &AddressMap, tile: &Tile) -> Vec<CuteSwizzle> {
    let n = tile.offset_bits();
    let mut out = Vec::new();
    for b in 1..n {
        for m in 0..n {
            for s in b..n {
                if m + s + b > n {
                    continue;
                }
                let c = CuteSwizzle { b, m, s: s as i32 };
                if (0..n).all(|j| c.apply(1 << j) == map.columns()[j as usize]) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// The first Triton swizzled layout equal to `map` on `tile`: row-major first, then the
/// smallest `vec`, `perPhase`, `maxPhase`.
fn triton_form(map: &AddressMap, tile: &Tile) -> Option<TritonSwizzle> {
    for row_major in [true, false] {
        let (rows, cols) = if row_major {
            (tile.rows(), tile.cols())
        } else {
            (tile.cols(), tile.rows())
        };
        let powers = |limit: u64| (0..=limit.trailing_zeros()).map(|k| 1u64 << k);
        for vec in powers(cols) {
            for per_phase in powers(rows) {
                for max_phase in powers((cols / vec).max(1)) {
                    if max_phase == 1 && (vec, per_phase) != (1, 1) {
                        continue; // no swizzle at all: written once, as vec=1,perPhase=1
                    }
                    let t = TritonSwizzle {
                        vec,
                        per_phase,
                        max_phase,
                        row_major,
                    };
                    if Layout::TritonSwizzled(t).to_map(tile).as_ref() == Ok(map) {
                        return Some(t);
                    }
                }
            }
        }
    }
    None
}

/// The bases of the Triton linear layout of `map`: the `(row, col)` stored at element offset
/// `1 << i`.
fn triton_bases(map: &AddressMap, tile: &Tile) -> Vec<[u64; 2]> {
    let shift = tile.elem_shift();
    let logical = map.inverse();
    (0..tile.element_bits())
        .map(|i| {
            let e = logical.apply(1 << (i + shift)) >> shift;
            [e >> tile.col_bits(), e & (tile.cols() - 1)]
        })
        .collect()
}

/// Every form that writes `map` on `tile` exactly, most specific first: `none`; the TMA modes;
/// a CuTe swizzle on element offsets, then on byte offsets; a Triton swizzled layout; Triton's
/// linear layout; the matrix. The last two always exist. Where several CuTe or Triton
/// parameters give the same map (bits beyond a small tile read as zero), the first is given:
/// the fewest mask bits, the smallest `vec`, `perPhase`, `maxPhase`.
pub fn forms(map: &AddressMap, tile: &Tile) -> Vec<Layout> {
    let mut out = Vec::new();
    if map.is_identity() {
        out.push(Layout::RowMajor);
    }
    let cute = cute_forms(map, tile);
    out.extend(
        TmaMode::ALL
            .into_iter()
            .filter(|&mode| Layout::Tma(mode).to_map(tile).as_ref() == Ok(map))
            .map(Layout::Tma),
    );
    let shift = tile.elem_shift();
    out.extend(cute.iter().find(|c| c.m >= shift).map(|c| {
        Layout::Cute(
            CuteSwizzle {
                m: c.m - shift,
                ..*c
            },
            CuteUnit::Elements,
        )
    }));
    out.extend(cute.first().map(|c| Layout::Cute(*c, CuteUnit::Bytes)));
    out.extend(triton_form(map, tile).map(Layout::TritonSwizzled));
    out.push(Layout::TritonLinear(triton_bases(map, tile)));
    out.push(Layout::Matrix(map.rows()));
    out
}

/// The layout family a form belongs to, for preferences between equally good layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// No swizzle.
    RowMajor,
    /// A TMA mode.
    Tma,
    /// A CuTe swizzle.
    Cute,
    /// A Triton swizzled layout.
    Triton,
    /// Only a general matrix (or Triton's linear layout).
    Matrix,
}

impl Family {
    /// The family of one form.
    pub fn of(layout: &Layout) -> Self {
        match layout {
            Layout::RowMajor => Family::RowMajor,
            Layout::Tma(_) => Family::Tma,
            Layout::Cute(..) => Family::Cute,
            Layout::TritonSwizzled(_) => Family::Triton,
            Layout::TritonLinear(_) | Layout::Matrix(_) | Layout::Hash(_) => Family::Matrix,
        }
    }
}

/// The bank (or, for elements wider than 4 bytes, the bank group) of every element offset as a
/// hash configuration: `addr_bits` = element-offset bits, `banks` = 32 groups of 4 bytes, 16 of
/// 8 or 8 of 16 (see [`bank_groups`]); bank = bits of the physical byte offset of the element's
/// first byte. Full rank, so `rtl-gen hash --config` takes it as it is.
pub fn hash_config(map: &AddressMap, tile: &Tile) -> HashConfig {
    let (start, bits) = bank_groups(tile);
    let shift = tile.elem_shift();
    let rows: Vec<u64> = (0..bits)
        .map(|i| {
            (0..tile.element_bits()).fold(0, |row, j| {
                row | ((map.apply(1 << (j + shift)) >> (start + i)) & 1) << j
            })
        })
        .collect();
    let geometry = Geometry::new(tile.element_bits(), 1 << bits)
        .unwrap_or_else(|e| unreachable!("a tile holds at least 128 bytes: {e}"));
    HashConfig::new(geometry, HashFunction::XorMatrix { rows })
        .unwrap_or_else(|e| unreachable!("rows built inside the element bits: {e}"))
}

/// The bank (group) of element `e` under `map`, computed from the map directly.
pub fn bank_of_element(map: &AddressMap, tile: &Tile, e: u64) -> u64 {
    let (start, bits) = bank_groups(tile);
    (map.apply(e << tile.elem_shift()) >> start) & ((1 << bits) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swizzle::tile::TileShape;
    use proptest::prelude::*;

    fn tile(shape: &str, eb: u32) -> Tile {
        Tile::new(shape.parse::<TileShape>().unwrap(), eb).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// CuTe -> matrix -> CuTe is the identity wherever the swizzle fits the tile.
        #[test]
        fn cute_round_trips(b in 1u32..5, m in 0u32..6, extra in 0u32..4, eb_log in 0u32..4) {
            let s = b + extra;
            let t = tile("64x64", 1 << eb_log);
            prop_assume!(m + s + b <= t.offset_bits());
            let c = CuteSwizzle { b, m, s: s as i32 };
            let map = Layout::Cute(c, CuteUnit::Bytes).to_map(&t);
            prop_assume!(map.is_ok()); // a swizzle below the element size splits elements
            let map = map.unwrap();
            let found = forms(&map, &t);
            prop_assert!(found.contains(&Layout::Cute(c, CuteUnit::Bytes)), "{found:?}");
            prop_assert_eq!(cute_forms(&map, &t), vec![c]);
            if m >= eb_log {
                let e = Layout::Cute(CuteSwizzle { m: m - eb_log, ..c }, CuteUnit::Elements);
                prop_assert_eq!(e.to_map(&t).unwrap(), map.clone());
                prop_assert!(found.contains(&e));
            }
        }

        /// TMA's modes are Swizzle<1|2|3,4,3> on shared-memory byte addresses; on a tile whose
        /// rows are one span, that is the layout.
        #[test]
        fn tma_modes_are_cute_swizzles(mode in 0usize..3, x in 0u64..1 << 18, eb_log in 0u32..5) {
            let m = TmaMode::ALL[mode];
            let c = CuteSwizzle { b: mode as u32 + 1, m: 4, s: 3 };
            prop_assert_eq!(m.apply(x), c.apply(x));
            let cols = m.span() >> eb_log;
            prop_assume!(cols > 0);
            let t = tile(&format!("64x{cols}"), 1 << eb_log);
            let a = Layout::Tma(m).to_map(&t).unwrap();
            prop_assert_eq!(Layout::Cute(c, CuteUnit::Bytes).to_map(&t).unwrap(), a);
        }

        /// Every exact form of a random Triton swizzle rebuilds its map, and the hash
        /// configuration gives the bank of every element.
        #[test]
        fn forms_and_hash_agree(vec_log in 0u32..4, pp_log in 0u32..3, mp_log in 0u32..4, eb_log in 0u32..3) {
            let t = tile("64x64", 1 << eb_log);
            let l = Layout::TritonSwizzled(TritonSwizzle {
                vec: 1 << vec_log, per_phase: 1 << pp_log, max_phase: 1 << mp_log, row_major: true,
            });
            let map = l.to_map(&t).unwrap();
            for f in forms(&map, &t) {
                prop_assert_eq!(f.to_map(&t).unwrap(), map.clone(), "{}", f);
                let reparsed: Layout = f.to_string().parse().unwrap();
                prop_assert_eq!(reparsed, f);
            }
            let h = hash_config(&map, &t);
            prop_assert!(h.check_full_rank().is_ok());
            for e in 0..t.elements() {
                prop_assert_eq!(h.bank(e), bank_of_element(&map, &t, e));
            }
            prop_assert_eq!(Layout::Hash(h).to_map(&t).map(|m| hash_config(&m, &t)), Ok(hash_config(&map, &t)));
        }
    }

    #[test]
    fn the_hopper_atom_is_found_in_every_spelling() {
        let t = tile("64x64", 2);
        let map = Layout::Tma(TmaMode::B128).to_map(&t).unwrap();
        let text: Vec<String> = forms(&map, &t).iter().map(|f| f.to_string()).collect();
        assert_eq!(
            &text[..4],
            [
                "tma:128B",
                "cute-elem:Swizzle<3,3,3>",
                "cute:Swizzle<3,4,3>",
                "triton:swizzled_shared<vec=8,perPhase=1,maxPhase=8,order=1,0>"
            ]
        );
        assert!(forms(&AddressMap::identity(13), &t)[0] == Layout::RowMajor);
    }
}
