//! End to end under Verilator: a global-memory model (latency, responses out of order), the
//! D²MA engine with its data path, a shared memory from `rtl-gen smem` (modulo, the XOR hash of
//! TMA's 128-byte swizzle, RAP), and warps that read every tile through the RAW check.
//!
//! Every word a warp reads is checked against `models::d2ma::data::shared_image`, or for a
//! tensor load `models::tma::image` (global byte `a` holds `a ^ a >> 8 ^ a >> 16`, the same
//! function in the testbench's memory model), and every completion's byte count against the
//! model's (an mbarrier's transaction count for a tensor load); a warp
//! load presents its address to the engine's RAW check every cycle until it may go, so no warp
//! reads before its buffer's data is written (a read that went early would see stale data);
//! probes of addresses outside their CTA's in-flight buffers are presented while warps wait,
//! and must never wait. The testbench prints `P passed, F failed` and stops with `$fatal` on a
//! mismatch, a probe that waited, or a phase that does not finish.

use rtl_gen::d2ma::engine;
use rtl_gen::d2ma::system::{engine_modules, System, SystemDesign};
use rtl_gen::d2ma::Storage;
use rtl_gen::rap::RapDesign;
use rtl_gen::rtl::verilog::emit;
use rtl_gen::smem::MapSpec;
use std::path::{Path, PathBuf};

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

/// The shared memory's map `map` (`modulo`, `tma128`: TMA's 128-byte swizzle as an
/// xor-matrix hash, `rap`: RAP with seed 1) at the size of `s`.
fn map_spec(s: &System, map: &str) -> MapSpec {
    let geometry = models::Geometry::new(s.addr_bits(), u64::from(s.banks)).unwrap();
    match map {
        "modulo" => MapSpec::Hash {
            config: models::HashConfig::new(geometry, models::HashFunction::Modulo).unwrap(),
            configurable: false,
        },
        "tma128" => {
            let object =
                models::HashConfigObject::from_json(&tma128_config(s.addr_bits())).unwrap();
            MapSpec::Hash {
                config: object.validate().unwrap().1.unwrap(),
                configurable: false,
            }
        }
        _ => MapSpec::Rap(
            RapDesign::drawn(
                models::rap::LayoutKind::Rap,
                s.banks,
                1,
                false,
                false,
                false,
            )
            .unwrap(),
        ),
    }
}

/// Builds and runs one system under one map with `rtl-gen cosim`'s Verilator run; returns its
/// summary line and its line of cycles, waits and probes.
fn run(s: &System, n: u16, map: &str) -> (String, String) {
    let started = std::time::Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let design = SystemDesign::new(*s, map_spec(s, map), u32::from(n)).unwrap();
    let (dir, manifest) = design.write("rtl-gen d2ma system", tmp.path()).unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    let text = std::fs::read_to_string(dir.join("build/verilator/run.log")).unwrap();
    assert_eq!(report.failed, 0, "simulation failed:\n{text}");
    for l in text.lines().filter(|l| l.starts_with("phase ")) {
        eprintln!("{map}: {l}");
    }
    let name = design.name();
    let line = |what: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{name}: ")) && l.contains(what))
            .unwrap_or_else(|| panic!("no {what} line:\n{text}"))
            .to_string()
    };
    let summary = line(" passed, ");
    assert_eq!(
        summary,
        format!("{name}: {} passed, 0 failed", manifest.testbench.vectors)
    );
    eprintln!("{map}: {:.0} s", started.elapsed().as_secs_f64());
    (summary, line(" cycles, "))
}

/// The paper's size ([`System::PAPER`]).
const PAPER: System = System::PAPER;

/// The paper's size with 4 tensor slots: the phases add the directed tensor loads (swizzles of
/// 128, 64 and 32 bytes and none, boxes across both ends of two dimensions and wholly outside,
/// element strides 2 and 3, ranks 2, 3 and 5, NaN and zero fill).
const PAPER_TENSOR: System = System {
    tensor_slots: 4,
    ..PAPER
};

/// A small size ([`System::SMALL`]).
const SMALL: System = System::SMALL;

/// The small size with the table and the MSHR buffers in latches (gated clocks, a write-data
/// flip-flop stage) and in clock-gated flip-flops.
const SMALL_LATCH: System = System {
    storage: Storage::Latch,
    tensor_slots: 2,
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

/// The small size with four tensor slots, for the H100's cases.
const SMALL_TENSOR: System = System {
    tensor_slots: 4,
    ..SMALL
};

/// The first 60 H100 load cases of `gpu/results/tma_h100c.txt.gz` (the cases the model matched
/// on silicon, `models::tma::silicon`) that fit the engine, end to end at the small size under
/// RAP: every byte of each box's image a warp reads is the model's. (`rtl-gen d2ma system
/// --tensor-cases` runs all of them, docs/TMA.md.)
#[test]
fn h100_cases_end_to_end_at_the_small_size() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../gpu/results/tma_h100c.txt.gz");
    let text = rtl_gen::json_input::read_text(&path).unwrap();
    let loads: Vec<_> = models::tma::silicon::parse(&text)
        .unwrap()
        .into_iter()
        .filter(|r| matches!(r, models::tma::silicon::Record::Load(..)))
        .take(60)
        .collect();
    let design = SystemDesign::new(SMALL_TENSOR, map_spec(&SMALL_TENSOR, "rap"), 64).unwrap();
    let (design, taken) = design.with_silicon_cases(&loads);
    assert!(taken >= 40, "{taken} of 60 cases fit");
    let tmp = tempfile::tempdir().unwrap();
    let (dir, manifest) = design.write("rtl-gen d2ma system", tmp.path()).unwrap();
    let (_, report) = rtl_gen::cosim::run(&dir, "verilator").unwrap();
    let log = std::fs::read_to_string(dir.join("build/verilator/run.log")).unwrap();
    assert_eq!(report.failed, 0, "{log}");
    assert_eq!(report.passed, manifest.testbench.vectors, "{log}");
}

/// Runs `s` under `map`: the summary line, after checking that loads waited and probes ran.
fn check(s: &System, n: u16, map: &str) {
    let (summary, line) = run(s, n, map);
    eprintln!("{map}: {summary}");
    eprintln!("{map}: {line}");
    let field = |name: &str| -> u64 {
        let at = line.find(&format!(" {name}")).unwrap();
        line[..at].rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert!(field("waits") > 0, "no load waited: {line}");
    assert!(field("probes") > 0, "no probe ran: {line}");
    assert!(field("requests") > 0, "no segment was requested: {line}");
}

#[test]
fn paper_size_with_tensor_maps_under_modulo() {
    check(&PAPER_TENSOR, 256, "modulo");
}

#[test]
fn paper_size_with_tensor_maps_under_the_tma_swizzle_hash() {
    check(&PAPER_TENSOR, 256, "tma128");
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
/// suppressed, `iverilog -g2005`, Yosys `check -assert`; no line over 100 characters.
#[test]
fn data_path_is_lint_clean() {
    for s in [
        &PAPER,
        &PAPER_TENSOR,
        &SMALL,
        &SMALL_LATCH,
        &SMALL_CLOCK_GATED,
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let files = write_engine(s, tmp.path());
        let top = engine::data_name(&s.design(), &s.data_path());
        testbenches::lint::verilator_lint(&files, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
        testbenches::lint::iverilog_compile(&files, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
        synth::check(&files, &top).unwrap_or_else(|e| panic!("{top}: {e}"));
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            assert!(text.lines().all(|l| l.len() <= 100), "{}", f.display());
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

/// The small engine with tensor slots and its data path (latch storage), pinned as above.
#[test]
fn tensor_engine_verilog_is_pinned() {
    let tmp = tempfile::tempdir().unwrap();
    let files = write_engine(&SMALL_LATCH, tmp.path());
    let mut text = String::new();
    for f in files.iter().rev() {
        text.push_str(&std::fs::read_to_string(f).unwrap());
    }
    let name = engine::data_name(&SMALL_LATCH.design(), &SMALL_LATCH.data_path());
    insta::assert_snapshot!(name, text);
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
