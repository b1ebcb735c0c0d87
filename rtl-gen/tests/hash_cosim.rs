//! Co-simulation of every hash kind x {fixed, configurable, pipelined} at several shapes against
//! the golden models: every design under Verilator, the paper's Fermi case under Icarus too.
//! Also checks that the checks can fail: a corrupted expectation and a broken module are caught.

mod common;

use models::HashKind;
use rtl_gen::block;
use rtl_gen::hash::vectors::VectorPlan;
use rtl_gen::hash::HashDesign;
use std::path::Path;

/// Shapes and the variants (configurable, pipeline) each is co-simulated with.
fn plan_for(n: u32, banks: u64) -> Vec<(bool, bool)> {
    match (n, banks) {
        (14, 32) => vec![(false, false), (true, false), (false, true), (true, true)],
        (1, 2) | (64, 65536) => vec![(false, false), (true, false)],
        _ => vec![(false, false), (true, false), (true, true)],
    }
}

fn generate(design: &HashDesign, out: &Path) -> std::path::PathBuf {
    block::write(design, &VectorPlan::default(), "rtl-gen test", out).unwrap()
}

fn cosim_kind(kind: HashKind) {
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (n, banks) in common::SHAPES {
        for (configurable, pipeline) in plan_for(n, banks) {
            if configurable && kind == HashKind::Modulo {
                continue;
            }
            let design = common::design(kind, n, banks, configurable, pipeline);
            let dir = generate(&design, tmp.path());
            let (manifest, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
            assert_eq!(
                report.failed, 0,
                "{}: {:?}",
                manifest.top, report.mismatches
            );
            assert_eq!(report.passed, manifest.testbench.vectors);
            // Exhaustive for fixed hashers up to 16 address bits, at least 100 000 vectors otherwise.
            let least = if !configurable && n <= 16 {
                1usize << n
            } else {
                100_000
            };
            assert!(
                report.passed >= least,
                "{}: {} vectors",
                manifest.top,
                report.passed
            );
            checked += 1;
        }
    }
    assert!(checked >= 6);
}

#[test]
fn modulo_under_verilator() {
    cosim_kind(HashKind::Modulo);
}

#[test]
fn bitvector_perm_under_verilator() {
    cosim_kind(HashKind::BitvectorPerm);
}

#[test]
fn bitvector_xor_under_verilator() {
    cosim_kind(HashKind::BitvectorXor);
}

#[test]
fn bitwise_perm_under_verilator() {
    cosim_kind(HashKind::BitwisePerm);
}

#[test]
fn bitwise_xor_under_verilator() {
    cosim_kind(HashKind::BitwiseXor);
}

#[test]
fn xor_matrix_under_verilator() {
    cosim_kind(HashKind::XorMatrix);
}

/// The Fermi case (n = 14, 32 banks), every kind and variant, under Icarus Verilog.
/// The one-hot offsets (`--offsets one-hot`) of the configurable bit-vector XOR at the Fermi
/// case: lint-clean, and every vector of the golden model passes under Verilator.
#[test]
fn one_hot_offsets_under_verilator() {
    let tmp = tempfile::tempdir().unwrap();
    let design = common::one_hot_bvxor();
    let dir = generate(&design, tmp.path());
    let name = design.name();
    let rtl = dir.join(format!("{name}.v"));
    common::assert_lint_clean(&[rtl], &dir.join(format!("tb/tb_{name}.v")), &name);
    let (manifest, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert_eq!(report.failed, 0, "{name}: {:?}", report.mismatches);
    assert_eq!(report.passed, manifest.testbench.vectors);
    assert!(
        report.passed >= 100_000,
        "{name}: {} vectors",
        report.passed
    );
}

#[test]
fn fermi_case_under_icarus() {
    let tmp = tempfile::tempdir().unwrap();
    for kind in HashKind::ALL {
        for (configurable, pipeline) in common::variants(kind) {
            let design = common::design(kind, 14, 32, configurable, pipeline);
            let dir = generate(&design, tmp.path());
            let (manifest, report) = rtl_gen::cosim::run(&dir, "iverilog").unwrap();
            assert_eq!(
                report.failed, 0,
                "{}: {:?}",
                manifest.top, report.mismatches
            );
            assert_eq!(report.passed, manifest.testbench.vectors);
        }
    }
}

/// The paper's Fig. 5 configuration: vectors from the golden model pass, a corrupted expected
/// value is reported as a mismatch, and a module with two bank bits swapped fails.
#[test]
fn mismatches_are_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let object = models::HashConfigObject::from_json(
        r#"{"kind":"bitvector-xor","addr_bits":14,"banks":32,"k1":2,"k2":8,"mask":7}"#,
    )
    .unwrap();
    let design = HashDesign::new(&object, false, false, false).unwrap();
    let dir = generate(&design, tmp.path());
    let name = design.name();

    // Corrupt the expectation of address 3 (bank 0 by Fig. 5: a2..a6 are 0) to bank 1.
    let expect = dir.join(format!("tb/{name}.expect.hex"));
    let text = std::fs::read_to_string(&expect).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[3], "00");
    lines[3] = "01";
    std::fs::write(&expect, lines.join("\n") + "\n").unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert_eq!((report.passed, report.failed), (16383, 1));
    assert!(
        report.mismatches[0].contains("vector 3"),
        "{:?}",
        report.mismatches
    );

    // A broken module: bank bits 3 and 4 swapped.
    let dir = generate(&design, tmp.path());
    let rtl = dir.join(format!("{name}.v"));
    let text = std::fs::read_to_string(&rtl).unwrap();
    let broken = text
        .replace(
            "assign bank_o[3] = addr_i[5];",
            "assign bank_o[3] = addr_i[6];",
        )
        .replace(
            "assign bank_o[4] = addr_i[6];",
            "assign bank_o[4] = addr_i[5];",
        );
    assert_ne!(broken, text);
    std::fs::write(&rtl, broken).unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "iverilog").unwrap();
    // Addresses whose bits 5 and 6 differ: half of them.
    assert_eq!(report.failed, 8192);
}
