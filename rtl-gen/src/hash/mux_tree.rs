//! A select by a run-time index built as 2:1 mux trees, printed one named wire per tree level.
//!
//! [`window_select`] gives `window` consecutive bits of `source >> sel` (bit `i` is
//! `source[i + sel]`, 0 past the top of `source`) for the index values `0..count`: for a
//! bit-vector hasher the bank bits of `addr_i >> cfg_k`, for a bitwise hasher (`window` 1) the
//! address bit `addr_i[cfg_bit]`. Per result bit it is the tree of 2:1 muxes over the `count`
//! values with `sel` bit 0 at the leaves; where a level has an odd number of nodes the last
//! one passes through to the next level unchanged, which decides what the index values from
//! `count` up (outside the configuration contract) select.
//!
//! The trees of all result bits share their nodes: level `l` (after `sel` bits `0..l`) holds
//! `source >> (sel mod 2^l)` at the positions the levels above read, so it is one wire
//! `<name>_lvl<l>`, assigned `sel[l-1] ? <level l-1 shifted by 2^(l-1)> : <level l-1>`. The
//! last nodes of the levels that passed through are read where the root needs them.

use crate::rtl::{Expr, Module, Signal};
use std::collections::BTreeSet;

/// A value on the right edge of the tree: bits `lsb..lsb + window` of level `level` (level 0
/// is the source), or a 2:1 mux of two such values by one bit of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Edge {
    Window {
        level: u32,
        lsb: u32,
    },
    Mux {
        bit: u32,
        one: Box<Edge>,
        zero: Box<Edge>,
    },
}

/// The root of the tree over `count` values with a `bits`-bit index, in terms of the levels'
/// windows: the complete subtrees are level windows, the right edge muxes them.
fn root(count: u32, bits: u32) -> Edge {
    let mut nodes = count;
    let mut last = Edge::Window {
        level: 0,
        lsb: count - 1,
    };
    for level in 1..=bits {
        let step = 1 << (level - 1);
        let next = nodes.div_ceil(2);
        if nodes.is_multiple_of(2) {
            // The last node pairs the last two nodes below; the lower one is complete.
            let lsb = (next - 1) * 2 * step;
            let zero = Edge::Window {
                level: level - 1,
                lsb,
            };
            let complete = Edge::Window {
                level: level - 1,
                lsb: lsb + step,
            };
            last = if last == complete {
                Edge::Window { level, lsb }
            } else {
                Edge::Mux {
                    bit: level - 1,
                    one: Box::new(last),
                    zero: Box::new(zero),
                }
            };
        }
        nodes = next;
    }
    last
}

/// The positions of each level that `edge` reads, `window` bits from each window's lsb.
fn collect(edge: &Edge, window: u32, needed: &mut [BTreeSet<u32>]) {
    match edge {
        Edge::Window { level, lsb } => needed[*level as usize].extend(*lsb..lsb + window),
        Edge::Mux { one, zero, .. } => {
            collect(one, window, needed);
            collect(zero, window, needed);
        }
    }
}

/// One level of the tree as built so far: its wire and the positions it holds, in bit order.
struct Level {
    wire: Signal,
    positions: Vec<u32>,
}

/// The bits at `positions` (in result bit order) of level `level`: runs of consecutive bits
/// as part-selects, the source's bits past its top as zeros.
fn gather(source: &Signal, levels: &[Option<Level>], level: u32, positions: &[u32]) -> Expr {
    // (signal, its bit) of each position, or None for a zero past the source's top.
    let bits: Vec<Option<(&Signal, u32)>> = positions
        .iter()
        .map(|&p| {
            if level == 0 {
                (p < source.width()).then_some((source, p))
            } else {
                let l = levels[level as usize]
                    .as_ref()
                    .unwrap_or_else(|| unreachable!("level {level} not built"));
                let i = l
                    .positions
                    .binary_search(&p)
                    .unwrap_or_else(|_| unreachable!("position {p} of level {level} not built"));
                Some((&l.wire, i as u32))
            }
        })
        .collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < bits.len() {
        let mut j = i + 1;
        match bits[i] {
            None => {
                while j < bits.len() && bits[j].is_none() {
                    j += 1;
                }
                parts.push(Expr::zeros((j - i) as u32));
            }
            Some((signal, lsb)) => {
                while j < bits.len()
                    && bits[j].is_some_and(|(s, b)| s == signal && b == lsb + (j - i) as u32)
                {
                    j += 1;
                }
                parts.push(signal.slice(lsb + (j - i) as u32 - 1, lsb));
            }
        }
        i = j;
    }
    parts.reverse();
    Expr::concat(parts)
}

/// `window` consecutive bits of `source >> sel` for `sel` in `0..count` as level wires named
/// `<name>_lvl<l>` (see the module documentation); returns the root expression (`window` bits).
pub fn window_select(
    module: &mut Module,
    name: &str,
    source: &Signal,
    sel: &Signal,
    count: u32,
    window: u32,
) -> Expr {
    assert!(
        count > 0 && u64::from(count) <= 1 << sel.width(),
        "index too narrow"
    );
    let bits = sel.width();
    let edge = root(count, bits);
    let mut needed = vec![BTreeSet::new(); bits as usize + 1];
    collect(&edge, window, &mut needed);
    for level in (1..=bits).rev() {
        let step = 1 << (level - 1);
        let above: Vec<u32> = needed[level as usize].iter().copied().collect();
        needed[level as usize - 1].extend(above.iter().flat_map(|&p| [p, p + step]));
    }
    let mut levels: Vec<Option<Level>> = (0..=bits).map(|_| None).collect();
    for level in 1..=bits {
        let positions: Vec<u32> = needed[level as usize].iter().copied().collect();
        if positions.is_empty() {
            continue;
        }
        let step = 1 << (level - 1);
        let shifted: Vec<u32> = positions.iter().map(|p| p + step).collect();
        let value = Expr::mux(
            sel.bit(level - 1),
            gather(source, &levels, level - 1, &shifted),
            gather(source, &levels, level - 1, &positions),
        );
        let wire = module.wire_of(&format!("{name}_lvl{level}"), value);
        levels[level as usize] = Some(Level { wire, positions });
    }
    let mut used: BTreeSet<u32> = (1..=bits)
        .filter(|&l| levels[l as usize].is_some())
        .map(|l| l - 1)
        .collect();
    mux_bits(&edge, &mut used);
    let unused: Vec<Expr> = (0..bits)
        .rev()
        .filter(|b| !used.contains(b))
        .map(|b| sel.bit(b))
        .collect();
    if !unused.is_empty() {
        // Index bits no tree level reads (one value only, or the top bits of a wide field).
        module.sink_unused(sel.name(), Expr::concat(unused));
    }
    expr(&edge, source, &levels, sel, window)
}

/// The index bits the right edge's muxes read.
fn mux_bits(edge: &Edge, used: &mut BTreeSet<u32>) {
    if let Edge::Mux { bit, one, zero } = edge {
        used.insert(*bit);
        mux_bits(one, used);
        mux_bits(zero, used);
    }
}

fn expr(edge: &Edge, source: &Signal, levels: &[Option<Level>], sel: &Signal, window: u32) -> Expr {
    match edge {
        Edge::Window { level, lsb } => {
            let positions: Vec<u32> = (*lsb..lsb + window).collect();
            gather(source, levels, *level, &positions)
        }
        Edge::Mux { bit, one, zero } => Expr::mux(
            sel.bit(*bit),
            expr(one, source, levels, sel, window),
            expr(zero, source, levels, sel, window),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(level: u32, lsb: u32) -> Edge {
        Edge::Window { level, lsb }
    }

    #[test]
    fn complete_trees_are_one_level_window() {
        assert_eq!(root(16, 4), window(4, 0));
        assert_eq!(root(1, 3), window(0, 0));
        assert_eq!(root(2, 1), window(1, 0));
    }

    #[test]
    fn the_right_edge_muxes_the_passed_through_nodes() {
        // Ten offsets, four index bits: offsets 8 and 9 pass levels 2 and 3 unchanged.
        assert_eq!(
            root(10, 4),
            Edge::Mux {
                bit: 3,
                one: Box::new(window(1, 8)),
                zero: Box::new(window(3, 0)),
            }
        );
        // Fourteen values: 12 and 13 pass level 2, 8 to 11 pass level 3.
        assert_eq!(
            root(14, 4),
            Edge::Mux {
                bit: 3,
                one: Box::new(Edge::Mux {
                    bit: 2,
                    one: Box::new(window(1, 12)),
                    zero: Box::new(window(2, 8)),
                }),
                zero: Box::new(window(3, 0)),
            }
        );
    }

    /// The value the tree selects for index `k` (in or out of range) at result bit `i`, by
    /// evaluating the per-bit tree of 2:1 muxes with the last node passing through.
    fn reference(values: &[u32], k: u32, bits: u32) -> u32 {
        let mut level: Vec<u32> = values.to_vec();
        for b in 0..bits {
            level = level
                .chunks(2)
                .map(|pair| {
                    let one = *pair.get(1).unwrap_or(&pair[0]);
                    if k >> b & 1 == 1 {
                        one
                    } else {
                        pair[0]
                    }
                })
                .collect();
        }
        level[0]
    }

    /// Evaluates `edge` for index `k`: which source position result bit `i` reads.
    fn position(edge: &Edge, k: u32, i: u32) -> u32 {
        match edge {
            Edge::Window { level, lsb } => i + lsb + (k & ((1 << level) - 1)),
            Edge::Mux { bit, one, zero } => {
                position(if k >> bit & 1 == 1 { one } else { zero }, k, i)
            }
        }
    }

    #[test]
    fn every_index_selects_what_the_per_bit_tree_selects() {
        for count in 1..=20u32 {
            let bits = crate::rtl::ir::bits_for(u64::from(count)) + u32::from(count % 3 == 0);
            let edge = root(count, bits);
            for k in 0..1 << bits {
                for i in 0..4 {
                    let values: Vec<u32> = (0..count).map(|v| i + v).collect();
                    assert_eq!(
                        position(&edge, k, i),
                        reference(&values, k, bits),
                        "count {count}, index {k}, bit {i}"
                    );
                }
            }
        }
    }
}
