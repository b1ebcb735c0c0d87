//! Conflict detection, computed once per access as it is accepted:
//! - `<top>_conflict` compares every pair of lanes, `same_bank` and `same_word` (same bank and
//!   row: one physical word), and clears the byte enables a higher lane overrides on the same
//!   word, so that the banks take each byte from the highest lane that writes it;
//! - `<top>_one_pass` says whether a set of lanes is served in one pass: no two of its lanes
//!   ask one bank for different words (a *clash*; without the broadcast, any two lanes of one
//!   bank clash) and, under the half-warp rule, all of them are in one group of lanes.
//!
//! Pair vectors list the pairs `(i, j)`, `i < j`, column by column ([`SmemDesign::pair`]), so
//! the pairs of lane `j` with every lower lane are one part select.

use super::design::SmemDesign;
use crate::rtl::wiring::{gather, plane};
use crate::rtl::{Expr, Module, Signal};

/// The pairs of lane `j` with lanes `0..j`: bits `[pair(j-1, j) : pair(0, j)]` (for `j > 0`).
pub fn column(pairs: &Signal, j: u32) -> Expr {
    pairs.slice(SmemDesign::pair(j - 1, j), SmemDesign::pair(0, j))
}

/// Builds `<top>_one_pass`: `set_i` (lanes), `conflict_i` (pairs on one bank with different
/// words) to `clash_free_o` and `one_pass_o`.
pub fn one_pass(design: &SmemDesign, header: Vec<String>) -> Module {
    let lanes = design.shape().lanes();
    let mut module = Module::new(format!("{}_one_pass", design.name())).with_header(header);
    let set = module.input("set_i", lanes, "The lanes, one bit each.");
    let conflict = module.input(
        "conflict_i",
        design.pairs(),
        if design.broadcast() {
            "Per lane pair: the two lanes ask one bank for different words."
        } else {
            "Per lane pair: the two lanes ask one bank (no broadcast)."
        },
    );
    let clash_free_o = module.output(
        "clash_free_o",
        1,
        "No two lanes of the set ask one bank for different words.",
    );
    let one_pass_o = module.output(
        "one_pass_o",
        1,
        "One pass serves the whole set: clash-free and, under the half-warp rule, in one group.",
    );
    let clash = module.wire("clash", lanes - 1);
    for j in 1..lanes {
        let lower = set.slice(j - 1, 0).and(column(&conflict, j));
        let any = lower.ne(Expr::zeros(j));
        module.assign_bit(&clash, j - 1, set.bit(j).and(any));
    }
    module.assign(&clash_free_o, clash.expr().eq(Expr::zeros(lanes - 1)));
    let groups = design.groups();
    if groups > 1 {
        let any = group_any(&mut module, design, &set);
        let g = Expr::constant(1, groups);
        let single = any.expr().and(any.expr() - g).eq(Expr::zeros(groups));
        module.assign(&one_pass_o, clash_free_o.expr().and(single));
    } else {
        module.assign(&one_pass_o, clash_free_o.expr());
    }
    module
}

/// Wire `conflict`: per lane pair, whether the two lanes cannot share a pass: one bank and
/// different words (`same_word` given: the broadcast serves one word to many lanes), or one
/// bank (no broadcast).
pub fn clashes(module: &mut Module, same_bank: &Signal, same_word: Option<&Signal>) -> Signal {
    match same_word {
        Some(same_word) => module.wire_of("conflict", same_bank.expr().and(!same_word.expr())),
        None => module.wire_of("conflict", same_bank.expr()),
    }
}

/// Wire `group_any`: bit `g` is set when a lane of group `g` is in `set`.
pub fn group_any(module: &mut Module, design: &SmemDesign, set: &Signal) -> Signal {
    let groups = design.groups();
    let size = design.shape().group_lanes();
    let any = module.wire("group_any", groups);
    for g in 0..groups {
        let lanes = set.slice((g + 1) * size - 1, g * size);
        module.assign_bit(&any, g, lanes.ne(Expr::zeros(size)));
    }
    any
}

/// Builds `<top>_conflict` (combinational) around an instance of `one_pass`.
pub fn build(design: &SmemDesign, one_pass: &Module, header: Vec<String>) -> Module {
    let shape = design.shape();
    let (lanes, m, r) = (shape.lanes(), shape.bank_bits(), shape.row_bits());
    let bytes = shape.word_bytes();
    let mut module = Module::new(format!("{}_conflict", design.name())).with_header(header);
    let mask = module.input("mask_i", lanes, "Active lanes.");
    let bank = module.input(
        "bank_i",
        lanes * m,
        "Bank of each lane, lane 0 in the low bits.",
    );
    let row = module.input("row_i", lanes * r, "Row of each lane.");
    let be = module.input("be_i", lanes * bytes, "Byte enables of each lane.");
    let same_bank = module.output(
        "same_bank_o",
        design.pairs(),
        "Per lane pair (i, j), i < j, column by column: same bank.",
    );
    let same_word = module.output(
        "same_word_o",
        design.pairs(),
        "Per lane pair: same bank and row (one physical word).",
    );
    let be_o = module.output(
        "be_o",
        lanes * bytes,
        "Byte enables less the bytes a higher active lane writes to the same word.",
    );
    let clash_free_o = module.output(
        "clash_free_o",
        1,
        "No two active lanes ask one bank for different words.",
    );
    let one_pass_o = module.output("one_pass_o", 1, "One pass serves every active lane.");
    for j in 1..lanes {
        for i in 0..j {
            let p = SmemDesign::pair(i, j);
            let bank_eq = bank
                .slice((i + 1) * m - 1, i * m)
                .eq(bank.slice((j + 1) * m - 1, j * m));
            module.assign_bit(&same_bank, p, bank_eq);
            let row_eq = row
                .slice((i + 1) * r - 1, i * r)
                .eq(row.slice((j + 1) * r - 1, j * r));
            module.assign_bit(&same_word, p, same_bank.bit(p).and(row_eq));
        }
    }
    let conflict = clashes(
        &mut module,
        &same_bank,
        design.broadcast().then_some(&same_word),
    );
    let out = module.instantiate(
        one_pass,
        "one_pass",
        vec![("set_i", mask.expr()), ("conflict_i", conflict.expr())],
    );
    module.assign(&clash_free_o, out["clash_free_o"].expr());
    module.assign(&one_pass_o, out["one_pass_o"].expr());
    // Byte `k` of lanes 1 and up (lane 0 is above no lane): bit `j - 1` is lane `j`'s.
    let planes: Vec<Signal> = (0..bytes)
        .map(|k| {
            let upper = plane(&be, bytes, k).split_off(1);
            gather(&mut module, &format!("be_plane{k}"), upper)
        })
        .collect();
    for i in 0..lanes - 1 {
        let same_above: Vec<Expr> = (i + 1..lanes)
            .map(|j| same_word.bit(SmemDesign::pair(i, j)))
            .collect();
        let above = gather(&mut module, &format!("above{i}"), same_above);
        let active = module.wire_of(
            &format!("above{i}_active"),
            above.expr().and(mask.slice(lanes - 1, i + 1)),
        );
        for (k, plane) in planes.iter().enumerate() {
            let bit = i * bytes + k as u32;
            let overridden = active
                .expr()
                .and(plane.slice(lanes - 2, i))
                .ne(Expr::zeros(lanes - 1 - i));
            module.assign_bit(&be_o, bit, be.bit(bit).and(!overridden));
        }
    }
    let top = (lanes - 1) * bytes;
    module.assign_range(&be_o, top + bytes - 1, top, be.slice(top + bytes - 1, top));
    module
}
