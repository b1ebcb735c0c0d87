//! The counter's module: lane `i`'s bank from its own instance of the hasher; lane `i` counts
//! when it is valid and no valid lower lane has its address (a repeat is a broadcast); bank
//! `k`'s load is the number of counting lanes whose bank is `k` (a sum tree); the bank cycles
//! are the largest load (a maximum tree).

use super::ConflictDesign;
use crate::rtl::wiring::{max_tree, popcount};
use crate::rtl::{Expr, Module};

/// Builds the module of `design` around `hasher`, the hasher's module.
pub fn build(design: &ConflictDesign, hasher: &Module, header: Vec<String>) -> Module {
    let lanes = design.lanes();
    let geometry = design.hash().geometry;
    let (n, banks) = (geometry.addr_bits(), geometry.banks() as u32);
    let mut module = Module::new(design.name()).with_header(header);
    let valid = module.input("valid_i", lanes, "Lane i takes part in the access.");
    let addr = module.input(
        "addr_i",
        lanes * n,
        "Lane i's word address in bits [i*ADDR_BITS +: ADDR_BITS].",
    );
    let cycles = module.output(
        "cycles_o",
        design.count_bits(),
        "Bank cycles of the access: distinct addresses in the fullest bank (0: no valid lane).",
    );
    let lane_addr = |i: u32| addr.slice(i * n + n - 1, i * n);
    let bank: Vec<Expr> = (0..lanes)
        .map(|i| {
            let out =
                module.instantiate(hasher, &format!("lane{i}"), vec![("addr_i", lane_addr(i))]);
            out["bank_o"].expr()
        })
        .collect();
    let counts: Vec<Expr> = (0..lanes)
        .map(|i| {
            let repeats = (0..i).map(|j| valid.bit(j).and(lane_addr(j).eq(lane_addr(i))));
            let repeat = repeats.reduce(Expr::or).unwrap_or_else(|| Expr::zeros(1));
            valid.bit(i).and(!repeat)
        })
        .collect();
    let counting = module.wire("counting", lanes);
    module.assign(&counting, Expr::concat(counts.into_iter().rev().collect()));
    let m = geometry.bank_bits();
    let loads: Vec<Expr> = (0..banks)
        .map(|k| {
            let hits: Vec<Expr> = (0..lanes)
                .map(|i| {
                    counting
                        .bit(i)
                        .and(bank[i as usize].clone().eq(Expr::constant(u64::from(k), m)))
                })
                .collect();
            let hit = module.wire(&format!("bank{k}_hits"), lanes);
            module.assign(&hit, Expr::concat(hits.into_iter().rev().collect()));
            popcount(&mut module, &format!("bank{k}_load"), &hit).expr()
        })
        .collect();
    let fullest = max_tree(&mut module, "fullest", loads);
    module.assign(&cycles, fullest.expr());
    module
}
