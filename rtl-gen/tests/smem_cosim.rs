//! The shared memory co-simulated cycle by cycle against `models::smem::cycle`: every output of
//! every cycle (readies, responses and their data, counters) checked, at the shapes.
//!
//! In CI, under Verilator: 32 lanes x 32 banks with each map (modulo, the XOR paper's fixed
//! XOR, a configurable bit-vector XOR with its register rewritten amid accesses, baked RAP), 16
//! lanes x 16 banks with a configurable GF(2) matrix and 32 lanes x 64 banks with RAP; 8-byte
//! words at 4 lanes x 2 banks under the half-warp rule with fill beats of two words and SRAM
//! macros; under Icarus a loadable RAP memory of 8 lanes x 8 banks with 2-word fill beats; a
//! corrupted expectation and a broken grant stage are caught. Each memory is built once: the
//! Verilator build is `-Wall` with nothing suppressed (the lint of the RTL and its testbench),
//! and the same folder is compiled by `iverilog -g2005` and checked by Yosys `check -assert`.
//!
//! Each case's vectors are the directed phases (every word written, back-to-back reads, the
//! RAP paper's patterns, back-pressure, read-after-write, partial warps, fill races, map
//! writes) and a few random accesses: the Verilator build of a 32-lane memory, not its run,
//! is what a case costs (docs/SMEM.md, Verification, has the seconds). Ignored (run with
//! `cargo test -p rtl-gen --test smem_cosim -- --ignored`): loadable RAP at 32 x 32 and
//! 8-byte words at 32 lanes x 16 banks.

mod common;

use rtl_gen::block;
use rtl_gen::smem::vectors::SmemPlan;
use rtl_gen::smem::SmemDesign;
use std::path::{Path, PathBuf};

/// Random warp accesses after the directed phases, in every case but the Icarus one.
const RANDOM: usize = 20;

fn write(d: &SmemDesign, random: usize, out: &Path) -> PathBuf {
    block::write(d, &SmemPlan { seed: 7, random }, "rtl-gen test", out).unwrap()
}

/// Writes `d`, checks its own lines (at most 120 characters), its RTL and testbench with Icarus
/// (`-g2005`) and Yosys (`check -assert`), and co-simulates it under `simulator`: every vector
/// passes. (Under Verilator the build itself is the `-Wall` lint.)
fn cosim(d: &SmemDesign, random: usize, simulator: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write(d, random, tmp.path());
    let name = d.name();
    let (manifest, _) = rtl_gen::manifest::Manifest::load(&dir).unwrap();
    let rtl: Vec<_> = manifest.rtl_files.iter().map(|f| dir.join(f)).collect();
    let tb = dir.join(format!("tb/tb_{name}.v"));
    common::assert_smem_lines_short(d, &rtl);
    if simulator == "verilator" {
        let with_tb: Vec<PathBuf> = rtl.iter().cloned().chain([tb]).collect();
        testbenches::lint::iverilog_compile(&with_tb, &format!("tb_{name}"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        synth::check(&rtl, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    common::assert_cosim_passes(&dir, simulator);
}

#[test]
fn modulo_at_32_lanes_by_32_banks() {
    cosim(
        &common::smem((32, 32, 32, 4), "modulo", 1, None),
        RANDOM,
        "verilator",
    );
}

#[test]
fn fixed_xor_at_32_lanes_by_32_banks() {
    cosim(
        &common::smem((32, 32, 32, 4), "xor", 1, None),
        RANDOM,
        "verilator",
    );
}

/// The configurable hasher: its `cfg_i` register rewritten amid accesses (phase 9).
#[test]
fn configurable_hasher_at_32_lanes_by_32_banks() {
    cosim(
        &common::smem((32, 32, 32, 4), "bvxor-cfg", 1, None),
        RANDOM,
        "verilator",
    );
}

#[test]
fn rap_at_32_lanes_by_32_banks() {
    cosim(
        &common::smem((32, 32, 32, 4), "rap", 1, None),
        RANDOM,
        "verilator",
    );
}

/// A configurable GF(2) matrix, reprogrammed amid accesses.
#[test]
fn configurable_matrix_at_16_lanes_by_16_banks() {
    cosim(
        &common::smem((16, 16, 16, 4), "xormat-cfg", 1, None),
        RANDOM,
        "verilator",
    );
}

#[test]
fn rap_at_32_lanes_by_64_banks() {
    cosim(
        &common::smem((32, 64, 64, 4), "rap", 1, None),
        RANDOM,
        "verilator",
    );
}

/// 8-byte words over 2 banks with 4 lanes (two groups under the half-warp rule), fill beats of
/// 2 words, SRAM macros.
#[test]
fn eight_byte_words_fill_beats_and_macros() {
    let d = common::smem((4, 2, 8, 8), "bvxor-cfg", 2, Some("sram_8x64"));
    assert_eq!(d.groups(), 2);
    cosim(&d, RANDOM, "verilator");
}

/// Without the broadcast (`--broadcast off`): lanes that read one word take a pass each.
#[test]
fn fixed_xor_without_broadcast_at_8_lanes_by_8_banks() {
    let d = common::smem((8, 8, 8, 4), "xor", 1, None)
        .with_broadcast(false)
        .unwrap();
    cosim(&d, RANDOM, "verilator");
}

/// Icarus: a loadable RAP memory (table entries written amid accesses) with 2-word fill beats.
#[test]
fn icarus_runs_a_loadable_rap_memory() {
    cosim(
        &common::smem((8, 8, 8, 4), "rap-load", 2, None),
        60,
        "iverilog",
    );
}

// Shapes beyond CI's budget (minutes each on 2 cores): run them with
// `cargo test -p rtl-gen --test smem_cosim -- --ignored` (docs/SMEM.md, Verification).

#[test]
#[ignore = "full shapes: cargo test -p rtl-gen --test smem_cosim -- --ignored"]
fn loadable_rap_at_32_lanes_by_32_banks() {
    cosim(
        &common::smem((32, 32, 32, 4), "rap-load", 1, None),
        RANDOM,
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
