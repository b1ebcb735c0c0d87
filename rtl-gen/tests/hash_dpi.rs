//! The DPI-C fast path (`rtl-gen cosim --fast`): the golden model linked into the Verilator
//! simulation checks the same vectors as the file-based testbench, and a broken circuit fails
//! the same vectors with the same MISMATCH lines under both.

mod common;

use golden_dpi::HashPlanStimulus;
use models::hash_stimulus::VectorPlan;
use models::{HashConfigObject, HashKind};
use rtl_gen::block;
use rtl_gen::hash::{dpi, HashDesign};
use std::path::{Path, PathBuf};

fn generate(design: &HashDesign, plan: &VectorPlan, out: &Path) -> PathBuf {
    block::write(design, plan, "test", out).unwrap()
}

/// Replaces the first `from` of the module's logic by `to` (the circuit computes something else
/// there).
fn break_module(dir: &Path, name: &str, from: &str, to: &str) {
    let rtl = dir.join(format!("{name}.v"));
    let text = std::fs::read_to_string(&rtl).unwrap();
    let logic = text.find("assign").unwrap();
    let (head, body) = text.split_at(logic);
    let broken = format!("{head}{}", body.replacen(from, to, 1));
    assert_ne!(broken, text);
    std::fs::write(&rtl, broken).unwrap();
}

/// The Fermi configurable bitwise XOR with the default plan: the DPI testbench checks the
/// file-based testbench's 100 000 vectors; on a mutant both fail the same vectors.
#[test]
fn fast_path_checks_the_file_vectors_and_fails_a_mutant_the_same_way() {
    let tmp = tempfile::tempdir().unwrap();
    let object = HashConfigObject::new(HashKind::BitwiseXor, 14, 32);
    let design = HashDesign::new(&object, true, false, false).unwrap();
    let plan = VectorPlan::default();
    let dir = generate(&design, &plan, tmp.path());
    let stimulus = HashPlanStimulus::Vectors(plan);

    let (manifest, report) = dpi::run(&dir, stimulus.clone(), 64).unwrap();
    assert_eq!(report.failed, 0, "{:?}", report.mismatches);
    assert_eq!(report.passed, manifest.testbench.vectors);
    assert_eq!(report.passed, 100_000);

    // Where the circuit reads address bit 5 at that spot it reads bit 6 instead.
    break_module(&dir, &design.name(), "addr_i[5]", "addr_i[6]");
    let (_, files) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    let (_, fast) = dpi::run(&dir, stimulus, 64).unwrap();
    assert!(files.failed > 0);
    assert_eq!((fast.passed, fast.failed), (files.passed, files.failed));
    assert_eq!(fast.mismatches, files.mismatches);
}

/// A pipelined wide fixed hasher (xor-matrix, 64 address bits) with a lane count that does not
/// divide the vectors, so the last round is partial and the pipeline drains; then its
/// mutant fails under both testbenches alike.
#[test]
fn fast_path_handles_pipelines_partial_rounds_and_wide_vectors() {
    let tmp = tempfile::tempdir().unwrap();
    let design = common::design(HashKind::XorMatrix, 64, 32, false, true);
    let plan = VectorPlan {
        seed: 5,
        vectors: 1001,
        configs: 1,
    };
    let dir = generate(&design, &plan, tmp.path());
    let stimulus = HashPlanStimulus::Vectors(plan);
    let (_, report) = dpi::run(&dir, stimulus.clone(), 7).unwrap();
    assert_eq!((report.passed, report.failed), (1001, 0));

    // One XOR of the parity trees becomes an OR.
    break_module(&dir, &design.name(), " ^ ", " | ");
    let (_, files) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    let (_, fast) = dpi::run(&dir, stimulus, 7).unwrap();
    assert!(files.failed > 0);
    assert_eq!((fast.passed, fast.failed), (files.passed, files.failed));
    // The file-based testbench of a clocked block names the reset phase of each mismatch (the
    // vectors rerun after each mid-operation reset); the fast path runs phase 1 only.
    let phase_one: Vec<String> = files
        .mismatches
        .iter()
        .filter_map(|m| m.strip_suffix(" phase 1").map(str::to_string))
        .collect();
    assert_eq!(fast.mismatches, phase_one[..fast.mismatches.len()]);
}

/// A configuration sweep of a small configurable bitwise XOR (4 address bits, 4 banks): every
/// legal configuration on every address. Counted by hand: bank bits take single bits (4) or
/// pairs of two bits written either way (6 pairs x 2); sequences of two distinct ones:
/// 4*3 + 2*(4*6*2) + 6*5*4 = 12 + 96 + 120 = 228 configurations, 16 addresses each.
#[test]
fn sweep_covers_every_configuration_on_every_address() {
    let tmp = tempfile::tempdir().unwrap();
    let object = HashConfigObject::new(HashKind::BitwiseXor, 4, 4);
    let design = HashDesign::new(&object, true, false, false).unwrap();
    let dir = generate(&design, &VectorPlan::default(), tmp.path());
    let sweep = HashPlanStimulus::Sweep {
        max_configs: 1000,
        samples: 0,
        seed: 1,
    };
    let (_, report) = dpi::run(&dir, sweep, 16).unwrap();
    assert_eq!((report.passed, report.failed), (228 * 16, 0));
}

/// The CLI: `--fast` passes (exit 0), refuses Icarus and non-hash blocks with one line and
/// exit status 2.
#[test]
fn cli_fast_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let out = common::rtl_gen(tmp.path(), &[&common::FIG5_HASH[..], &["."]].concat());
    assert!(out.status.success(), "{out:?}");
    let dir = "hash_bvxor_n14_b32";
    let out = common::rtl_gen(tmp.path(), &["cosim", dir, "--fast", "--vectors", "5000"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains("16384 passed, 0 failed"), "{text}");

    let out = common::rtl_gen(
        tmp.path(),
        &["cosim", dir, "--fast", "--simulator", "iverilog"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--simulator iverilog"), "{err}");

    let out = common::rtl_gen(tmp.path(), &["rap", "--banks", "4", "--out", "."]);
    assert!(out.status.success(), "{out:?}");
    let out = common::rtl_gen(tmp.path(), &["cosim", "rap_w4", "--fast"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--fast") && err.contains("rap"), "{err}");
}
