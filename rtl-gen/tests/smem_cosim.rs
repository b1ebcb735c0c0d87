//! The shared memory co-simulated cycle by cycle against `models::smem::cycle`: every output of
//! every cycle (readies, responses and their data, counters) checked. In CI, under Verilator: 8
//! lanes x 8 banks with modulo, a configurable hash and RAP, 8-byte words at 4 lanes x 2 banks
//! under the half-warp rule with fill beats of two words and SRAM macros; under Icarus a small
//! loadable RAP memory; a corrupted expectation and a broken grant stage are caught. Ignored (too
//! slow for CI, run with `cargo test -p rtl-gen --test smem_cosim -- --ignored`): 32 lanes x 32
//! banks with each map, 16 x 16 and 32 lanes x 64 banks, 8-byte words at 32 lanes x 16 banks.

mod common;

use rtl_gen::block;
use rtl_gen::smem::vectors::SmemPlan;
use rtl_gen::smem::SmemDesign;
use std::path::{Path, PathBuf};

fn write(d: &SmemDesign, random: usize, out: &Path) -> PathBuf {
    block::write(d, &SmemPlan { seed: 7, random }, "rtl-gen test", out).unwrap()
}

fn cosim(d: &SmemDesign, random: usize, simulator: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write(d, random, tmp.path());
    let (manifest, report) = rtl_gen::cosim::run(&dir, simulator).unwrap();
    assert_eq!(
        report.failed, 0,
        "{}: {:?}",
        manifest.top, report.mismatches
    );
    assert_eq!(report.passed, manifest.testbench.vectors);
}

/// Each kind of map (modulo, a configurable hash with its register, baked RAP) at a small shape.
#[test]
fn every_kind_of_map_at_8_lanes_by_8_banks() {
    for map in ["modulo", "bvxor-cfg", "rap"] {
        cosim(&common::smem((8, 8, 16, 4), map, 1, None), 20, "verilator");
    }
}

/// 8-byte words over 2 banks with 4 lanes (two groups under the half-warp rule), fill beats of
/// 2 words, SRAM macros.
#[test]
fn eight_byte_words_fill_beats_and_macros() {
    let d = common::smem((4, 2, 8, 8), "bvxor-cfg", 2, Some("sram_8x64"));
    assert_eq!(d.groups(), 2);
    cosim(&d, 20, "verilator");
}

// The full shapes, too slow for CI's budget (minutes each on 2 cores): run them with
// `cargo test -p rtl-gen --test smem_cosim -- --ignored` (docs/SMEM.md, Verification).

#[test]
#[ignore = "full shapes: cargo test -p rtl-gen --test smem_cosim -- --ignored"]
fn every_map_at_32_lanes_by_32_banks() {
    for map in ["modulo", "xor", "bvxor-cfg", "rap", "rap-load"] {
        cosim(
            &common::smem((32, 32, 32, 4), map, 1, None),
            20,
            "verilator",
        );
    }
}

#[test]
#[ignore = "full shapes: cargo test -p rtl-gen --test smem_cosim -- --ignored"]
fn sixteen_by_sixteen_and_32_lanes_by_64_banks() {
    cosim(
        &common::smem((16, 16, 16, 4), "xormat-cfg", 1, None),
        40,
        "verilator",
    );
    cosim(
        &common::smem((32, 64, 64, 4), "rap", 1, None),
        20,
        "verilator",
    );
}

/// 8-byte words over 16 banks with 32 lanes (two half-warps), fill beats of 4 words, SRAM
/// macros.
#[test]
#[ignore = "full shapes: cargo test -p rtl-gen --test smem_cosim -- --ignored"]
fn eight_byte_words_at_32_lanes_by_16_banks() {
    let d = common::smem((32, 16, 32, 8), "bvxor-cfg", 4, Some("sram_32x64"));
    assert_eq!(d.groups(), 2);
    cosim(&d, 30, "verilator");
}

#[test]
fn icarus_runs_a_small_loadable_rap_memory() {
    cosim(
        &common::smem((4, 4, 8, 4), "rap-load", 2, None),
        60,
        "iverilog",
    );
}

/// The checks can fail: a flipped expected bit fails one vector, and a grant stage that does
/// not merge lanes asking for one word (no broadcast: no lane follows a leader) fails many.
#[test]
fn a_wrong_expectation_and_a_broken_grant_are_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let d = common::smem((4, 4, 8, 4), "xor", 1, None);
    let dir = write(&d, 40, tmp.path());
    let name = d.name();
    let path = dir.join(format!("tb/{name}.expect.hex"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let last = lines[40].pop().unwrap();
    let flipped = u8::from_str_radix(&last.to_string(), 16).unwrap() ^ 1;
    lines[40].push_str(&format!("{flipped:x}"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert_eq!(report.failed, 1);

    let dir = write(&d, 40, &tmp.path().join("broken"));
    let grant = dir.join(format!("{name}_grant.v"));
    let text = std::fs::read_to_string(&grant).unwrap();
    let honest = "assign served_o = pending_i & (leader | follows);";
    assert!(text.contains(honest), "{text}");
    let broken = text.replace(
        honest,
        "assign served_o = pending_i & (leader | (follows & ~follows));",
    );
    std::fs::write(&grant, broken).unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    assert!(report.failed > 10, "{report:?}");
}
