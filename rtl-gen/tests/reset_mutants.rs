//! The testbenches catch what they used to miss: each check added with the mid-operation resets
//! and the AGEN's directed case fails a mutant of the generated RTL that passed before (issue 13).
//! A mutant is the block's own Verilog with one edit; the unmutated block passes first.

use std::path::{Path, PathBuf};

mod common;
use common::{rtl_gen, stderr};

/// Generates a block with `args` into `dir/o` and returns its folder.
fn generate(dir: &Path, args: &[&str], name: &str) -> PathBuf {
    let args: Vec<&str> = args.iter().copied().chain(["--out", "o"]).collect();
    let o = rtl_gen(dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    dir.join("o").join(name)
}

/// Co-simulates the block in `block` with its RTL edited by `mutate`; returns its `MISMATCH`
/// lines (the block's testbench is unchanged), asserting that some vector failed.
fn mismatches_of(block: &Path, simulator: &str, mutate: impl Fn(&str) -> String) -> Vec<String> {
    let name = block.file_name().unwrap().to_str().unwrap();
    let rtl = block.join(format!("{name}.v"));
    let text = std::fs::read_to_string(&rtl).unwrap();
    let mutated = mutate(&text);
    assert_ne!(mutated, text, "the mutation changed nothing");
    std::fs::write(&rtl, &mutated).unwrap();
    let (_, report) = rtl_gen::cosim::run(block, simulator).unwrap();
    std::fs::write(&rtl, &text).unwrap();
    assert!(report.failed > 0, "the mutant passed");
    report.mismatches
}

/// Every register's asynchronous reset made synchronous.
fn synchronous_reset(text: &str) -> String {
    text.replace(
        "always @(posedge clk_i or negedge rst_ni)",
        "always @(posedge clk_i)",
    )
}

/// The first reset value `<= W'hV;` after `register <=` changed in its lowest bit.
fn reset_value_flipped(text: &str, register: &str) -> String {
    let at = text
        .find(&format!("{register} <= "))
        .unwrap_or_else(|| panic!("no {register} in\n{text}"));
    let end = at + text[at..].find(';').unwrap();
    let last = text[..end].chars().last().unwrap();
    let flipped = char::from_digit(last.to_digit(16).unwrap() ^ 1, 16).unwrap();
    format!("{}{flipped}{}", &text[..end - 1], &text[end..])
}

#[test]
fn loadable_rap_converter_resets_asynchronously_to_its_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let block = generate(
        tmp.path(),
        &["rap", "--banks", "8", "--configurable", "--vectors", "2000"],
        "rap_w8_load",
    );
    let (_, report) = rtl_gen::cosim::run(&block, "iverilog").unwrap();
    assert_eq!((report.failed, report.passed), (0, report.vectors));
    // With the clock stopped, a synchronous reset leaves the loaded tables in place: caught
    // after the mid-operation resets (phases 2 and 3), never after the power-on reset, the only
    // one the testbench used to give.
    let lines = mismatches_of(&block, "iverilog", synchronous_reset);
    assert!(lines.iter().all(|l| !l.contains("phase 1")), "{lines:?}");
    // A table bit that resets to the wrong value is read after every reset.
    let wrong_reset = |t: &str| reset_value_flipped(t, "shift_bit0_q");
    let lines = mismatches_of(&block, "iverilog", wrong_reset);
    for phase in ["phase 1", "phase 2", "phase 3"] {
        assert!(
            lines.iter().any(|l| l.contains(phase)),
            "{phase}: {lines:?}"
        );
    }
}

#[test]
fn pipelined_hasher_outputs_reset_to_zero_asynchronously() {
    let tmp = tempfile::tempdir().unwrap();
    let block = generate(
        tmp.path(),
        &[
            "hash",
            "--kind",
            "bitvector-xor",
            "--addr-bits",
            "10",
            "--banks",
            "4",
            "--configurable",
            "--pipeline",
            "--vectors",
            "2000",
        ],
        "hash_bvxor_n10_b4_cfg_pipe",
    );
    let (_, report) = rtl_gen::cosim::run(&block, "iverilog").unwrap();
    assert_eq!((report.failed, report.passed), (0, report.vectors));
    // Outputs that stay put while rst_ni is low with the clock stopped; an output register
    // with the wrong reset value. The testbench used to check neither.
    let reset_value = "not at reset value in reset";
    let lines = mismatches_of(&block, "iverilog", synchronous_reset);
    assert!(
        lines
            .iter()
            .all(|l| l.contains(reset_value) && l.contains("phase 2")),
        "{lines:?}"
    );
    let lines = mismatches_of(&block, "iverilog", |t| reset_value_flipped(t, "bank_q"));
    assert!(
        lines[0].contains(reset_value) && lines[0].contains("phase 1"),
        "{lines:?}"
    );
}

#[test]
fn agen_requests_again_the_segment_a_new_transfer_starts_in() {
    let tmp = tempfile::tempdir().unwrap();
    let block = generate(
        tmp.path(),
        &["d2ma", "agen", "--vectors", "0"],
        "d2ma_agen_s128",
    );
    let (_, report) = rtl_gen::cosim::run(&block, "iverilog").unwrap();
    assert_eq!((report.failed, report.passed), (0, report.vectors));
    // The last-segment register not cleared by a load: the new transfer's first segment, the
    // previous transfer's last, would not be requested again. Only the directed case of a
    // transfer starting in that segment (the last directed transfer, one request in its last
    // cycle, with no random transfers after) sees it.
    let keeps_last_segment = |t: &str| {
        t.replace(
            "assign last_valid_d = load ? 1'b0 :",
            "assign last_valid_d = load ? last_valid_q :",
        )
    };
    let lines = mismatches_of(&block, "iverilog", keeps_last_segment);
    let last = format!("MISMATCH vector {} ", report.vectors - 1);
    assert!(lines.iter().all(|l| l.starts_with(&last)), "{lines:?}");
    // A D²MA unit's state reset synchronously survives the reset with the clock stopped.
    let lines = mismatches_of(&block, "iverilog", synchronous_reset);
    assert!(lines.iter().all(|l| !l.contains("phase 1")), "{lines:?}");
}
