//! Every generated module passes `verilator --lint-only -Wall` with nothing suppressed, Yosys
//! `hierarchy -check; proc; check -assert`, and `iverilog -g2005`; so does its testbench.

mod common;

use rtl_gen::hash::block;
use rtl_gen::hash::vectors::VectorPlan;
use std::path::PathBuf;
use std::process::Command;

fn yosys_check(file: &PathBuf, top: &str) {
    let script = format!(
        "read_verilog {}; hierarchy -check -top {top}; proc; check -assert",
        file.display()
    );
    let out = Command::new("yosys")
        .args(["-q", "-p", &script])
        .output()
        .expect("yosys runs");
    assert!(
        out.status.success(),
        "yosys check of {top}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

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
        testbenches::lint::verilator_lint(&[rtl.clone()], &name)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        testbenches::lint::verilator_lint(&[rtl.clone(), tb.clone()], &format!("tb_{name}"))
            .unwrap_or_else(|e| panic!("tb of {name}: {e}"));
        testbenches::lint::iverilog_compile(&[rtl.clone(), tb], &format!("tb_{name}"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        yosys_check(&rtl, &name);
    }
}
