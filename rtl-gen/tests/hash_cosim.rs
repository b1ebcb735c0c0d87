//! Co-simulation of every hash kind x {fixed, configurable, pipelined} at several shapes against
//! the golden models: every design under Verilator, the paper's Fermi case under Icarus too.
//! CI runs every variant at the paper's 14 bits / 32 banks and the fixed and configurable ones
//! at the other shapes; the pipelined ones there run with
//! `cargo test -p rtl-gen --test hash_cosim -- --ignored`.
//! Also checks that the checks can fail: a corrupted expectation and a broken module are caught.

mod common;

use models::HashKind;
use rtl_gen::block;
use rtl_gen::hash::vectors::VectorPlan;
use rtl_gen::hash::HashDesign;
use std::path::Path;

/// Shapes and the variants (configurable, pipeline) CI co-simulates each with: every variant at
/// the paper's 14 bits / 32 banks, fixed and configurable at the others.
fn plan_for(n: u32, banks: u64) -> Vec<(bool, bool)> {
    match (n, banks) {
        (14, 32) => vec![(false, false), (true, false), (false, true), (true, true)],
        _ => vec![(false, false), (true, false)],
    }
}

/// The variants left out of CI, run with `--ignored`: configurable and pipelined at the shapes
/// between the paper's and the extremes (5/32, 8/2, 64/32). The pipeline is the same stage at
/// every shape, co-simulated in CI at 14/32 and linted at every shape (`tests/hash_lint.rs`).
fn pipelined_elsewhere(n: u32, banks: u64) -> Vec<(bool, bool)> {
    match (n, banks) {
        (14, 32) | (1, 2) | (64, 65536) => vec![],
        _ => vec![(true, true)],
    }
}

fn generate(design: &HashDesign, out: &Path) -> std::path::PathBuf {
    block::write(design, &VectorPlan::default(), "rtl-gen test", out).unwrap()
}

/// Co-simulates `kind` at every shape in the variants `plan` gives it under Verilator, checks
/// that every vector passes, and returns how many designs ran.
fn cosim_kind(kind: HashKind, plan: fn(u32, u64) -> Vec<(bool, bool)>) -> usize {
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (n, banks) in common::SHAPES {
        for (configurable, pipeline) in plan(n, banks) {
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
    checked
}

/// Every shape of `kind` in CI's variants: at least the six fixed designs.
fn cosim_kind_in_ci(kind: HashKind) {
    assert!(cosim_kind(kind, plan_for) >= 6);
}

#[test]
fn modulo_under_verilator() {
    cosim_kind_in_ci(HashKind::Modulo);
}

#[test]
fn bitvector_perm_under_verilator() {
    cosim_kind_in_ci(HashKind::BitvectorPerm);
}

#[test]
fn bitvector_xor_under_verilator() {
    cosim_kind_in_ci(HashKind::BitvectorXor);
}

#[test]
fn bitwise_perm_under_verilator() {
    cosim_kind_in_ci(HashKind::BitwisePerm);
}

#[test]
fn bitwise_xor_under_verilator() {
    cosim_kind_in_ci(HashKind::BitwiseXor);
}

#[test]
fn xor_matrix_under_verilator() {
    cosim_kind_in_ci(HashKind::XorMatrix);
}

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

/// The configurable pipelined variants at 5/32, 8/2 and 64/32, every kind that has them.
#[test]
#[ignore = "full shapes: cargo test -p rtl-gen --test hash_cosim -- --ignored"]
fn pipelined_variants_at_the_other_shapes() {
    let ran: usize = HashKind::ALL
        .into_iter()
        .map(|kind| cosim_kind(kind, pipelined_elsewhere))
        .sum();
    assert_eq!(ran, 3 * (HashKind::ALL.len() - 1));
}

/// The Fermi case (n = 14, 32 banks), every kind and variant, under Icarus Verilog.
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
