//! `<top>_grant`: the lanes one pass serves, from the lanes still pending and the pairwise
//! comparisons the conflict stage registered.
//!
//! The pass works on the *eligible* lanes: every pending lane, or under the half-warp rule the
//! pending lanes of the lowest group that has any (all pending lanes when the access merges,
//! a load that one pass serves whole). In each bank the lowest eligible lane *leads*; a lane is
//! served when it leads or asks for its bank's leader's word (a broadcast). Every bank thus
//! serves one distinct word a pass, and an access takes as many passes as the most distinct
//! words it asks of one bank: its congestion. Without the broadcast only the leaders are
//! served: as many passes as the most lanes that ask one bank. The module also says whether one
//! pass serves the lanes left after this one, which the grant stage registers as "the next pass
//! is the last".

use super::conflict::{clashes, column, group_any};
use super::design::SmemDesign;
use crate::rtl::{Expr, Module};

/// Builds `<top>_grant` (combinational) around an instance of `one_pass`.
pub fn build(design: &SmemDesign, one_pass: &Module, header: Vec<String>) -> Module {
    let lanes = design.shape().lanes();
    let groups = design.groups();
    let mut module = Module::new(format!("{}_grant", design.name())).with_header(header);
    let pending = module.input("pending_i", lanes, "Lanes not served yet.");
    let merge = (groups > 1).then(|| {
        module.input(
            "merge_i",
            1,
            "A load one pass serves whole: its groups are not served apart.",
        )
    });
    let same_bank = module.input("same_bank_i", design.pairs(), "Per lane pair: same bank.");
    let same_word = design
        .broadcast()
        .then(|| module.input("same_word_i", design.pairs(), "Per lane pair: same word."));
    let served = module.output("served_o", lanes, "Lanes this pass serves.");
    let any_o = module.output("any_o", 1, "The pass serves some lane (it uses the banks).");
    let last_o = module.output(
        "rest_one_pass_o",
        1,
        "One pass serves the lanes left after this one (none left counts).",
    );
    let eligible = match &merge {
        None => pending.clone(),
        Some(merge) => {
            let any = group_any(&mut module, design, &pending);
            let first = module.wire_of(
                "group_first",
                any.expr().and(!any.expr() + Expr::constant(1, groups)),
            );
            let eligible = module.wire("eligible", lanes);
            let size = design.shape().group_lanes();
            for g in 0..groups {
                let (msb, lsb) = ((g + 1) * size - 1, g * size);
                let take = merge.expr().or(first.bit(g));
                let value = Expr::mux(take, pending.slice(msb, lsb), Expr::zeros(size));
                module.assign_range(&eligible, msb, lsb, value);
            }
            eligible
        }
    };
    // A lane is blocked when a lower eligible lane asks its bank; it follows when a lower
    // leader asks for its word.
    let blocked = module.wire("blocked", lanes);
    module.assign_bit(&blocked, 0, Expr::constant(0, 1));
    for j in 1..lanes {
        let lower = eligible.slice(j - 1, 0).and(column(&same_bank, j));
        module.assign_bit(&blocked, j, lower.ne(Expr::zeros(j)));
    }
    let leader = module.wire_of("leader", eligible.expr().and(!blocked.expr()));
    match &same_word {
        Some(same_word) => {
            let follows = module.wire("follows", lanes);
            module.assign_bit(&follows, 0, Expr::constant(0, 1));
            for i in 1..lanes {
                let lower = leader.slice(i - 1, 0).and(column(same_word, i));
                module.assign_bit(&follows, i, lower.ne(Expr::zeros(i)));
            }
            module.assign(
                &served,
                eligible.expr().and(leader.expr().or(follows.expr())),
            );
        }
        None => module.assign(&served, leader.expr()),
    }
    module.assign(&any_o, served.expr().ne(Expr::zeros(lanes)));
    let rest = module.wire_of("rest", pending.expr().and(!served.expr()));
    let conflict = clashes(&mut module, &same_bank, same_word.as_ref());
    let out = module.instantiate(
        one_pass,
        "one_pass",
        vec![("set_i", rest.expr()), ("conflict_i", conflict.expr())],
    );
    module.assign(&last_o, out["one_pass_o"].expr());
    module.sink_unused("clash_free", out["clash_free_o"].expr());
    module
}
