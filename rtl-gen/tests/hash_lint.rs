//! Every generated module passes `verilator --lint-only -Wall` with nothing suppressed, Yosys
//! `hierarchy -check; proc; check -assert`, and `iverilog -g2005`; so does its testbench.

mod common;

use rtl_gen::block;
use rtl_gen::hash::vectors::VectorPlan;

#[test]
fn every_module_and_testbench_is_lint_clean() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = VectorPlan {
        seed: 1,
        vectors: 64,
        configs: 2,
    };
    for design in common::all_designs() {
        let dir = block::write(&design, &plan, "rtl-gen test", tmp.path()).unwrap();
        let name = design.name();
        let rtl = dir.join(format!("{name}.v"));
        let tb = dir.join(format!("tb/tb_{name}.v"));
        common::assert_lint_clean(&[rtl], &tb, &name);
    }
}
