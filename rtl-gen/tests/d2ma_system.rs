//! End to end under Verilator: a global-memory model (latency, responses out of order), the
//! D²MA engine with its data path, a shared memory from `rtl-gen smem` (modulo, the XOR hash of
//! TMA's 128-byte swizzle, RAP), and warps that read every tile through the RAW check.
//!
//! Every word a warp reads is checked against `models::d2ma::data::shared_image` (global byte
//! `a` holds `a ^ a >> 8 ^ a >> 16`, the same function in the testbench's memory model); a warp
//! load presents its address to the engine's RAW check every cycle until it may go, so no warp
//! reads before its buffer's data is written (a read that went early would see stale data);
//! probes of addresses outside their CTA's in-flight buffers are presented while warps wait,
//! and must never wait. The testbench prints `P passed, F failed` and stops with `$fatal` on a
//! mismatch, a probe that waited, or a phase that does not finish.

mod common;

use rtl_gen::d2ma::engine;
use rtl_gen::d2ma::system::{engine_modules, phases, testbench, System};
use rtl_gen::d2ma::Storage;
use rtl_gen::rtl::verilog::emit;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes the engine's modules into `dir`.
fn write_engine(s: &System, dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for m in &engine_modules(s, vec![], &|_| vec![]) {
        let path = dir.join(format!("{}.v", m.name()));
        std::fs::write(&path, emit(m)).unwrap();
        files.push(path);
    }
    files
}

/// Generates the shared memory with `map_args` into `dir`; returns its top and files.
fn write_smem(s: &System, dir: &Path, map_args: &[&str]) -> (String, Vec<PathBuf>) {
    let lanes = s.lanes.to_string();
    let banks = s.banks.to_string();
    let depth = s.depth.to_string();
    let mut args = vec![
        "smem",
        "--lanes",
        &lanes,
        "--banks",
        &banks,
        "--depth",
        &depth,
        "--fill-words",
        &lanes,
        "--vectors",
        "0",
        "--out",
    ];
    let out = dir.to_string_lossy().to_string();
    args.push(&out);
    args.extend_from_slice(map_args);
    let o = common::rtl_gen(dir, &args);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let folder = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.is_dir()
                && p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("smem_")
        })
        .unwrap();
    let top = folder.file_name().unwrap().to_string_lossy().to_string();
    let files = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .collect();
    (top, files)
}

/// Builds and runs one system under one map; returns the summary line.
fn run(s: &System, n: u16, map: &str) -> String {
    let started = std::time::Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let config = dir.join("tma128.json");
    std::fs::write(&config, tma128_config(s.addr_bits())).unwrap();
    let config = config.to_string_lossy().to_string();
    let map_args: Vec<&str> = match map {
        "modulo" => vec!["--map", "modulo"],
        "tma128" => vec!["--map", "hash", "--hash-config", &config],
        _ => vec!["--map", "rap", "--rap-seed", "1"],
    };
    let (smem_top, mut files) = write_smem(s, dir, &map_args);
    files.extend(write_engine(s, dir));
    let (tb, loads) = testbench(s, &smem_top, &phases(s, n));
    let tb_path = dir.join("tb.v");
    std::fs::write(&tb_path, tb).unwrap();
    files.push(tb_path);
    let obj = dir.join("obj");
    let out = Command::new("verilator")
        .args(["--binary", "-j", "2", "--top-module", "tb", "-Mdir"])
        .arg(&obj)
        .args(&files)
        .output()
        .expect("verilator runs");
    assert!(
        out.status.success(),
        "verilator build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sim = Command::new(obj.join("Vtb"))
        .current_dir(dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&sim.stdout).to_string();
    assert!(sim.status.success(), "simulation failed:\n{text}");
    for l in text.lines().filter(|l| l.starts_with("phase ")) {
        eprintln!("{map}: {l}");
    }
    let line = text
        .lines()
        .find(|l| l.contains(" passed, "))
        .unwrap_or_else(|| panic!("no summary:\n{text}"))
        .to_string();
    assert!(
        line.starts_with(&format!("{loads} passed, 0 failed")),
        "{line}"
    );
    eprintln!("{map}: {:.0} s", started.elapsed().as_secs_f64());
    line
}

/// The paper's size ([`System::PAPER`]).
const PAPER: System = System::PAPER;

/// A small size ([`System::SMALL`]).
const SMALL: System = System::SMALL;

/// The small size with the table and the MSHR buffers in latches (gated clocks, a write-data
/// flip-flop stage) and in clock-gated flip-flops.
const SMALL_LATCH: System = System {
    storage: Storage::Latch,
    ..SMALL
};
const SMALL_CLOCK_GATED: System = System {
    storage: Storage::ClockGated,
    ..SMALL
};

/// TMA's 128-byte swizzle, CuTe's `Swizzle<3,4,3>` on byte offsets (bits 6:4 ^= bits 9:7), on
/// word addresses of 4-byte words: bank bits 4:2 ^= address bits 7:5, as an xor-matrix of
/// `addr_bits` address bits over 32 banks.
fn tma128_config(addr_bits: u32) -> String {
    format!(
        r#"{{"kind": "xor-matrix", "addr_bits": {addr_bits}, "banks": 32, "rows": ["0x1", "0x2", "0x24", "0x48", "0x90"]}}"#
    )
}

/// Runs `s` under `map`: the summary line, after checking that loads waited and probes ran.
fn check(s: &System, n: u16, map: &str) {
    let line = run(s, n, map);
    eprintln!("{map}: {line}");
    let field = |name: &str| -> u64 {
        let at = line.find(&format!(" {name}")).unwrap();
        line[..at].rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert!(field("waits") > 0, "no load waited: {line}");
    assert!(field("probes") > 0, "no probe ran: {line}");
}

#[test]
fn paper_size_under_modulo() {
    check(&PAPER, 256, "modulo");
}

#[test]
fn paper_size_under_the_tma_swizzle_hash() {
    check(&PAPER, 256, "tma128");
}

#[test]
fn paper_size_under_rap() {
    check(&PAPER, 256, "rap");
}

#[test]
fn small_size_under_rap() {
    check(&SMALL, 64, "rap");
}

#[test]
fn small_size_in_latches_and_clock_gated_flip_flops() {
    check(&SMALL_LATCH, 64, "rap");
    check(&SMALL_CLOCK_GATED, 64, "modulo");
}

/// The engine with its data path, at both sizes: `verilator --lint-only -Wall` with nothing
/// suppressed, `iverilog -g2005`, Yosys `check -assert`; no line over 120 characters.
#[test]
fn data_path_is_lint_clean() {
    for s in [&PAPER, &SMALL, &SMALL_LATCH, &SMALL_CLOCK_GATED] {
        let tmp = tempfile::tempdir().unwrap();
        let files = write_engine(s, tmp.path());
        let top = engine::data_name(&s.design(), &s.data_path());
        testbenches::lint::verilator_lint(&files, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
        testbenches::lint::iverilog_compile(&files, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
        synth::check(&files, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            assert!(text.lines().all(|l| l.len() <= 120), "{}", f.display());
        }
    }
}

/// The small engine with its data path, every module (top first, so the equivalence test can
/// elaborate it from the snapshot alone), pinned.
#[test]
fn data_path_verilog_is_pinned() {
    let tmp = tempfile::tempdir().unwrap();
    let files = write_engine(&SMALL, tmp.path());
    let mut text = String::new();
    for f in files.iter().rev() {
        text.push_str(&std::fs::read_to_string(f).unwrap());
    }
    insta::assert_snapshot!(engine::data_name(&SMALL.design(), &SMALL.data_path()), text);
}

/// `--map hash` with CuTe's `Swizzle<3,4,3>` as an xor-matrix is TMA's 128-byte swizzle: for
/// every byte of the 64 KB shared space, the physical word the shared memory stores it in
/// (`models::software::SoftwareIndex`, the smem's key `row * banks + bank`) is the word of the
/// CuTe formula written by hand, `b ^ ((b & 0x380) >> 3)`.
#[test]
fn tma_128_byte_swizzle_is_an_xor_matrix_hash() {
    let object = models::HashConfigObject::from_json(&tma128_config(PAPER.addr_bits())).unwrap();
    let (_, config) = object.validate().unwrap();
    let index = models::software::SoftwareIndex::new(&config.unwrap()).unwrap();
    for b in (0u64..0x10000).step_by(4) {
        let cute = b ^ ((b & 0x380) >> 3);
        assert_eq!(index.index(b >> 2), cute >> 2, "byte {b:#x}");
    }
}
