//! The best XOR layout for a set of accesses: the fewest wavefronts summed over every warp
//! access, a CuTe or TMA form preferred when one is as good, or the proof that no XOR layout is
//! conflict-free.
//!
//! A layout must keep every thread's vector whole, so it moves `g`-byte chunks (`g` the widest
//! vector) and only its map of chunk addresses matters; of that, only the bits that land in the
//! bank index: a `k x p` matrix `H` over GF(2) (`k = 7 - log2 g` bank-group bits, `p` chunk-address
//! bits). A group of threads served together (a wavefront's worth, [`super::wavefront`]) is
//! conflict-free exactly when, for each word position inside a chunk, `H` sends the distinct
//! chunks it touches there to distinct bank groups. Those chunk sets are the workload of the
//! `xor-matrix` search ([`crate::search::gf2`]): exact on sets that are affine subspaces (rows,
//! columns, fragments of power-of-two tiles), then a hill climb. Its result, completed to a
//! bijection, competes with every TMA mode, CuTe swizzle and Triton swizzled layout that fits,
//! all scored with the wavefront model itself.
//!
//! No layout can be conflict-free when a chunk set holds more chunks than there are bank groups
//! (counting), or when the exact search proves that no `H` of full rank is injective on every
//! affine set at once (the rank argument: each set's direction space must meet `ker H` only in
//! 0); the proof names a smallest subset of sets that already cannot be served together.

use super::access::AccessSet;
use super::export::{forms, Family};
use super::layout::{bank_groups, CuteSwizzle, CuteUnit, Layout, TmaMode, TritonSwizzle};
use super::map::AddressMap;
use super::tile::Tile;
use super::wavefront::{group_size, ideal_wavefronts, set_cost, Instruction, SetCost};
use crate::search::gf2::{self, affine_directions, Exact};
use crate::search::{Access, Candidate as SearchCandidate, Trace, Workload};
use crate::{Geometry, HashConfig, HashFunction};
use std::collections::BTreeMap;

/// Most affine sets the minimal-subset argument starts from (each step reruns the exact
/// search).
pub const MAX_PROOF_SETS: usize = 48;

/// A layout and its wavefronts on every access set.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The byte map.
    pub map: AddressMap,
    /// Every exact form, most specific first.
    pub forms: Vec<Layout>,
    /// Wavefronts per access set, in the order given.
    pub costs: Vec<SetCost>,
}

impl Scored {
    /// Loads plus stores over every set.
    pub fn total(&self) -> u64 {
        self.costs.iter().map(|c| c.load + c.store).sum()
    }

    /// The most specific family it can be written in.
    pub fn family(&self) -> Family {
        self.forms
            .iter()
            .map(Family::of)
            .min()
            .unwrap_or(Family::Matrix)
    }
}

/// One thread group's chunks at one word position that no layout can spread: more chunks than
/// bank groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crowded {
    /// The access set (`cols@16`).
    pub set: String,
    /// The warp access (`cols[3]`).
    pub warp: String,
    /// Distinct chunks at one word position.
    pub chunks: usize,
    /// Bank groups.
    pub groups: u64,
}

/// One affine chunk set of the rank argument: a warp access's thread group and the directions
/// `(row, column in elements)` that span its chunks (XOR differences).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Space {
    /// The access set.
    pub set: String,
    /// The warp access.
    pub warp: String,
    /// The basis, as `(row, element column)` XOR differences.
    pub basis: Vec<(u64, u64)>,
}

/// Whether a conflict-free layout exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The layout found serves every warp access in its ideal number of wavefronts.
    ConflictFree,
    /// No layout is: some group holds more chunks at one word position than there are bank
    /// groups.
    Counting(Crowded),
    /// No XOR layout is: these affine sets cannot all be served conflict-free by one bank map,
    /// and every proper subset can (`minimal`; `false` when the list was too long to shrink).
    Rank {
        /// The sets.
        spaces: Vec<Space>,
        /// Whether removing any one makes the rest feasible.
        minimal: bool,
    },
    /// Not conflict-free, not proven impossible (non-affine accesses, or the node limit).
    Unproven,
}

/// What the search found.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// The chosen layout.
    pub best: Scored,
    /// The ideal wavefronts summed over every access (what a conflict-free layout takes).
    pub ideal: u64,
    /// The fewest wavefronts any layout keeping the chunks whole can take (at least `ideal`).
    pub lower_bound: u64,
    /// Layouts scored.
    pub considered: usize,
    /// The bytes every layout keeps together (the widest vector).
    pub chunk_bytes: u64,
    /// The exact search's conclusion on the affine chunk sets.
    pub exact: Exact,
    /// Chunk sets that are affine subspaces, and all chunk sets.
    pub affine_sets: (usize, usize),
    /// Whether a conflict-free layout exists.
    pub verdict: Verdict,
}

/// One chunk set with where it comes from.
struct ChunkSet {
    set: usize,
    warp: usize,
    chunks: Vec<u64>,
}

/// The distinct chunks a thread group touches at each word position inside a chunk.
fn positions(group: &[u64], width: u32, chunk_shift: u32) -> Vec<Vec<u64>> {
    let mut by_position: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for &start in group {
        for word in (start..start + u64::from(width)).step_by(4) {
            let position = (word >> 2) & ((1 << (chunk_shift - 2)) - 1);
            by_position
                .entry(position)
                .or_default()
                .push(word >> chunk_shift);
        }
    }
    by_position
        .into_values()
        .map(|mut chunks| {
            chunks.sort_unstable();
            chunks.dedup();
            chunks
        })
        .collect()
}

/// The thread groups of every warp access (set, warp, threads): those of the `ldmatrix`, or
/// of the load and of the store.
fn groups(sets: &[AccessSet]) -> Vec<(usize, usize, &[u64])> {
    let mut out = Vec::new();
    for (si, set) in sets.iter().enumerate() {
        for (wi, warp) in set.warps.iter().enumerate() {
            let ops: &[Instruction] = if set.is_ldmatrix() {
                &[Instruction::Ldmatrix]
            } else {
                &[Instruction::Load, Instruction::Store]
            };
            for &op in ops {
                let size = group_size(&warp.offsets, set.width, op);
                out.extend(warp.offsets.chunks(size).map(|g| (si, wi, g)));
            }
        }
    }
    out
}

/// The chunk sets of every thread group of every warp access, per word position.
fn chunk_sets(sets: &[AccessSet], chunk_shift: u32) -> Vec<ChunkSet> {
    groups(sets)
        .into_iter()
        .flat_map(|(set, warp, group)| {
            positions(group, sets[set].width, chunk_shift)
                .into_iter()
                .map(move |chunks| ChunkSet { set, warp, chunks })
        })
        .collect()
}

/// The fewest wavefronts any layout moving `2^chunk_shift`-byte chunks can give: each group at
/// least as many passes as its fullest word position needs over `2^k` bank groups.
fn lower_bound(sets: &[AccessSet], chunk_shift: u32, k: u32) -> u64 {
    groups(sets)
        .into_iter()
        .map(|(set, _, group)| {
            let fullest = positions(group, sets[set].width, chunk_shift)
                .iter()
                .map(Vec::len)
                .max()
                .unwrap_or(0) as u64;
            fullest.div_ceil(1 << k)
        })
        .sum()
}

/// The `k x p` bank-group rows of a layout's chunk map.
fn bank_rows(map: &AddressMap, chunk_shift: u32, k: u32) -> Vec<u64> {
    let p = map.bits() - chunk_shift;
    (0..k)
        .map(|i| {
            (0..p).fold(0, |row, j| {
                row | ((map.apply(1 << (j + chunk_shift)) >> (chunk_shift + i)) & 1) << j
            })
        })
        .collect()
}

/// The byte map that moves `chunk_shift`-bit chunks by a completion of the bank rows.
fn map_of_rows(tile: &Tile, chunk_shift: u32, rows: &[u64]) -> Option<AddressMap> {
    let n = tile.offset_bits();
    let fixed: Vec<(u32, u64)> = rows
        .iter()
        .enumerate()
        .map(|(i, &r)| (i as u32, r))
        .collect();
    let chunk_map = AddressMap::complete(n - chunk_shift, &fixed)?;
    let low = (1u64 << chunk_shift) - 1;
    AddressMap::from_fn(n, |x| {
        (chunk_map.apply(x >> chunk_shift) << chunk_shift) | (x & low)
    })
    .ok()
}

/// Every TMA mode, CuTe swizzle (on bytes, writing only bank bits) and Triton swizzled layout
/// that keeps `chunk_bytes` together on `tile`, and the plain tile; each distinct map once, with
/// the families it was written in.
fn known_layouts(tile: &Tile, chunk_shift: u32) -> Vec<(AddressMap, Vec<Family>)> {
    let n = tile.offset_bits();
    let mut layouts = vec![Layout::RowMajor];
    layouts.extend(TmaMode::ALL.map(Layout::Tma));
    for m in chunk_shift..7 {
        for b in 1..=7 - m {
            for s in b..=n.saturating_sub(m + b) {
                layouts.push(Layout::Cute(
                    CuteSwizzle { b, m, s: s as i32 },
                    CuteUnit::Bytes,
                ));
            }
        }
    }
    let powers = |limit: u64| (0..=limit.trailing_zeros()).map(|k| 1u64 << k);
    for row_major in [true, false] {
        let (rows, cols) = if row_major {
            (tile.rows(), tile.cols())
        } else {
            (tile.cols(), tile.rows())
        };
        for vec in powers(cols) {
            for per_phase in powers(rows) {
                for max_phase in powers(cols / vec).skip(1) {
                    layouts.push(Layout::TritonSwizzled(TritonSwizzle {
                        vec,
                        per_phase,
                        max_phase,
                        row_major,
                    }));
                }
            }
        }
    }
    let mut maps: Vec<(AddressMap, Vec<Family>)> = Vec::new();
    for l in layouts {
        let Ok(map) = l.to_map(tile) else { continue };
        if map.contiguous_bytes() < 1 << chunk_shift {
            continue;
        }
        let family = Family::of(&l);
        match maps.iter_mut().find(|(m, _)| *m == map) {
            Some((_, families)) if !families.contains(&family) => families.push(family),
            Some(_) => {}
            None => maps.push((map, vec![family])),
        }
    }
    maps
}

/// The layout among `candidates` (maps with the families they were written in) with the fewest
/// wavefronts; among equals the plain tile, then one of family `prefer`, then the more specific
/// family, then the first. Layouts with the same bank rows (`signature`) take the same
/// wavefronts, so each is scored once.
fn choose(
    candidates: Vec<(AddressMap, Vec<Family>)>,
    signature: impl Fn(&AddressMap) -> Vec<u64>,
    tile: &Tile,
    sets: &[AccessSet],
    prefer: Family,
) -> Scored {
    let mut scored: BTreeMap<Vec<u64>, (Vec<SetCost>, u64)> = BTreeMap::new();
    for (m, _) in &candidates {
        scored.entry(signature(m)).or_insert_with(|| {
            let costs: Vec<SetCost> = sets.iter().map(|s| set_cost(s, m)).collect();
            let total = costs.iter().map(|c| c.load + c.store).sum();
            (costs, total)
        });
    }
    let least = scored.values().map(|s| s.1).min().unwrap_or(0);
    let rank = |families: &[Family]| {
        (
            !families.contains(&Family::RowMajor),
            !families.contains(&prefer),
            families.iter().min().copied().unwrap_or(Family::Matrix),
        )
    };
    let (map, _) = candidates
        .into_iter()
        .filter(|(m, _)| scored[&signature(m)].1 == least)
        .min_by_key(|(_, families)| rank(families))
        .unwrap_or_else(|| unreachable!("the plain tile is always a candidate"));
    Scored {
        forms: forms(&map, tile),
        costs: scored[&signature(&map)].0.clone(),
        map,
    }
}

fn workload(sets: &[&ChunkSet], geometry: Geometry) -> Workload {
    let trace = Trace {
        accesses: sets
            .iter()
            .map(|s| Access {
                label: String::new(),
                addresses: s.chunks.clone(),
            })
            .collect(),
    };
    Workload::new(geometry, &trace)
}

/// The `(row, element column)` of a chunk-address difference.
fn coordinates(tile: &Tile, chunk_shift: u32, v: u64) -> (u64, u64) {
    let offset = v << chunk_shift;
    (
        offset / tile.row_bytes(),
        (offset % tile.row_bytes()) / u64::from(tile.elem_bytes()),
    )
}

/// A smallest subset of `candidates` (affine chunk sets) that the exact search proves cannot be
/// conflict-free together; `None` if the whole list is feasible.
fn infeasible_core<'a>(
    candidates: &[&'a ChunkSet],
    geometry: Geometry,
) -> Option<(Vec<&'a ChunkSet>, bool)> {
    let impossible =
        |sets: &[&ChunkSet]| gf2::gf2(&workload(sets, geometry), &[]).exact == Exact::Impossible;
    if !impossible(candidates) {
        return None;
    }
    if candidates.len() > MAX_PROOF_SETS {
        return Some((candidates.to_vec(), false));
    }
    let mut core: Vec<&ChunkSet> = candidates.to_vec();
    let mut i = 0;
    while i < core.len() {
        let mut without = core.clone();
        without.remove(i);
        if impossible(&without) {
            core = without;
        } else {
            i += 1;
        }
    }
    Some((core, true))
}

/// Searches the layout of `tile` with the fewest wavefronts over `sets`; among equals the plain
/// tile, then a layout of the family `prefer`, then the more specific family (TMA, CuTe,
/// Triton, matrix), then the first found.
pub fn best_layout(tile: &Tile, sets: &[AccessSet], prefer: Family) -> SearchResult {
    let widest = sets.iter().map(|s| s.width).max().unwrap_or(4);
    let chunk_bytes = u64::from(widest.max(tile.elem_bytes()).max(4));
    let chunk_shift = chunk_bytes.trailing_zeros();
    let (_, k) = bank_groups(tile);
    let k = k.min(7 - chunk_shift);
    let p = tile.offset_bits() - chunk_shift;
    let geometry = Geometry::new(p, 1 << k)
        .unwrap_or_else(|e| unreachable!("a tile of 128 bytes or more has p >= k: {e}"));
    let all_sets = chunk_sets(sets, chunk_shift);
    let refs: Vec<&ChunkSet> = all_sets.iter().collect();
    let work = workload(&refs, geometry);

    let known = known_layouts(tile, chunk_shift);
    let seeds: Vec<SearchCandidate> = known
        .iter()
        .map(|(m, _)| {
            let rows = bank_rows(m, chunk_shift, k);
            let config = HashConfig::new(geometry, HashFunction::XorMatrix { rows })
                .unwrap_or_else(|e| unreachable!("rows inside p bits: {e}"));
            let cost = work.cost(|a| config.bank(a));
            SearchCandidate { config, cost }
        })
        .collect();
    let found = gf2::gf2(&work, &seeds);
    let mut candidates = known;
    if let Some(m) = map_of_rows(tile, chunk_shift, found.best.config.to_matrix().rows()) {
        if !candidates.iter().any(|(c, _)| *c == m) {
            candidates.push((m, vec![Family::Matrix]));
        }
    }
    let considered = candidates.len();
    let best = choose(
        candidates,
        |m| bank_rows(m, chunk_shift, k),
        tile,
        sets,
        prefer,
    );

    let ideal: u64 = sets
        .iter()
        .map(|s| {
            let op = if s.is_ldmatrix() {
                Instruction::Ldmatrix
            } else {
                Instruction::Load
            };
            s.warps
                .iter()
                .map(|w| {
                    let load = ideal_wavefronts(&w.offsets, s.width, op);
                    let store = if s.is_ldmatrix() {
                        0
                    } else {
                        ideal_wavefronts(&w.offsets, s.width, Instruction::Store)
                    };
                    u64::from(load + store)
                })
                .sum::<u64>()
        })
        .sum();
    let name = |c: &ChunkSet| (sets[c.set].name(), sets[c.set].warps[c.warp].label.clone());
    let verdict = if best.total() <= ideal {
        Verdict::ConflictFree
    } else if let Some(c) = all_sets
        .iter()
        .filter(|c| c.chunks.len() as u64 > geometry.banks())
        .max_by_key(|c| c.chunks.len())
    {
        let (set, warp) = name(c);
        Verdict::Counting(Crowded {
            set,
            warp,
            chunks: c.chunks.len(),
            groups: geometry.banks(),
        })
    } else if found.exact == Exact::Impossible {
        let mut seen: Vec<Vec<u64>> = Vec::new();
        let affine: Vec<&ChunkSet> = all_sets
            .iter()
            .filter(|c| {
                affine_directions(&c.chunks).is_some_and(|b| {
                    let fresh = !b.is_empty() && !seen.contains(&b);
                    if fresh {
                        seen.push(b);
                    }
                    fresh
                })
            })
            .collect();
        match infeasible_core(&affine, geometry) {
            Some((core, minimal)) => Verdict::Rank {
                spaces: core
                    .iter()
                    .map(|c| {
                        let (set, warp) = name(c);
                        Space {
                            set,
                            warp,
                            basis: affine_directions(&c.chunks)
                                .unwrap_or_default()
                                .into_iter()
                                .rev()
                                .map(|v| coordinates(tile, chunk_shift, v))
                                .collect(),
                        }
                    })
                    .collect(),
                minimal,
            },
            None => Verdict::Unproven,
        }
    } else {
        Verdict::Unproven
    };
    SearchResult {
        best,
        ideal,
        lower_bound: lower_bound(sets, chunk_shift, k).max(ideal),
        considered,
        chunk_bytes,
        exact: found.exact,
        affine_sets: (found.affine_sets, found.sets),
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swizzle::access::AccessKind;
    use crate::swizzle::tile::TileShape;

    fn tile(shape: &str, eb: u32) -> Tile {
        Tile::new(shape.parse::<TileShape>().unwrap(), eb).unwrap()
    }

    fn sets(t: &Tile, list: &[(AccessKind, u32)]) -> Vec<AccessSet> {
        list.iter()
            .map(|&(k, w)| AccessSet::generate(k, w, t).unwrap())
            .collect()
    }

    /// Rows and columns of 16-byte vectors over 128-byte rows of halves: the Hopper atom
    /// (TMA 128B = Swizzle<3,4,3>) is conflict-free, and preferred as TMA or CuTe.
    #[test]
    fn rows_and_columns_of_halves_get_the_128_byte_swizzle() {
        let t = tile("64x64", 2);
        let s = sets(&t, &[(AccessKind::Rows, 16), (AccessKind::Cols, 16)]);
        let r = best_layout(&t, &s, Family::Tma);
        assert_eq!(r.verdict, Verdict::ConflictFree);
        assert_eq!(r.best.total(), r.ideal);
        assert_eq!(r.best.forms[0], Layout::Tma(TmaMode::B128));
        let plain: u64 = s
            .iter()
            .map(|x| {
                let c = set_cost(x, &AddressMap::identity(13));
                c.load + c.store
            })
            .sum();
        assert!(plain > r.ideal);
    }

    /// Columns of 4-byte words of a float tile, and 16-byte rows: conflict-free columns need
    /// the row XORed into all five bank bits, which splits 16-byte vectors; with the vectors
    /// kept whole only 8 bank groups remain for the 16 rows of a column: counting.
    #[test]
    fn counting_refuses_columns_of_floats_with_wide_rows() {
        let t = tile("16x32", 4);
        let mut s = sets(&t, &[(AccessKind::Rows, 16), (AccessKind::Cols, 4)]);
        for set in &mut s {
            set.warps.truncate(1); // one warp access of each keeps the test quick
        }
        let r = best_layout(&t, &s, Family::Cute);
        assert!(matches!(r.verdict, Verdict::Counting(ref c) if c.chunks == 16 && c.groups == 8));
        // Two passes for the column (load and store), one per quarter-warp of the row: reached.
        assert_eq!(r.lower_bound, 2 * 2 + 2 * 4);
        assert_eq!(r.best.total(), r.lower_bound);
        // Alone, the columns are conflict-free with Swizzle<5,0,5> on elements.
        let alone = best_layout(&t, &sets(&t, &[(AccessKind::Cols, 4)]), Family::Cute);
        assert_eq!(alone.verdict, Verdict::ConflictFree);
    }

    /// Pairs of 16-byte vectors `{0, w}` for every non-zero `w` of a 4-dimensional space of
    /// chunk addresses: each pair alone is easy, but 8 bank groups cannot separate 16 chunks,
    /// so some `w` lands in the kernel of every bank map: the rank argument.
    #[test]
    fn the_rank_argument_names_an_infeasible_core() {
        let t = tile("64x64", 2);
        let warps = (1..16u64)
            .map(|w| crate::swizzle::access::WarpAccess {
                label: format!("pair{w}"),
                offsets: vec![0, w * 16],
            })
            .collect();
        let set = AccessSet {
            kind: AccessKind::Trace,
            width: 16,
            warps,
        };
        let r = best_layout(&t, &[set], Family::Cute);
        let Verdict::Rank { spaces, minimal } = &r.verdict else {
            panic!("{:?}", r.verdict)
        };
        assert!(*minimal);
        assert!(spaces.len() >= 4 && spaces.len() <= 15, "{spaces:?}");
        assert!(spaces.iter().all(|s| s.basis.len() == 1));
        assert_eq!(r.exact, Exact::Impossible);
    }
}
