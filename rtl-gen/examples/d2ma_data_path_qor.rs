//! Area and register-to-register delay of the D²MA engine with its data path into shared memory
//! (`engine::build_with`, which is a library call only, not a block folder `rtl-gen synth` can
//! read): the engine at the paper's size with the data path of `tests/d2ma_system.rs`'s paper
//! configuration, synthesized at NanGate45 by the same `synth` crate as `rtl-gen synth`.
//!
//! ```text
//! cargo run --release -p rtl-gen --example d2ma_data_path_qor -- OUT [TARGET_PS [STORAGE]]
//! ```
//!
//! Writes the Verilog and the synthesis files into `OUT` (created; it must not exist) and
//! prints one line: the top module, the area in um², and the slowest path from a flip-flop (or
//! latch) in ps with its start and end registers and its cells; with `TARGET_PS`, the
//! timing-driven flow for that target. `STORAGE` is the table's and the MSHR buffers' storage
//! style, as `rtl-gen d2ma --storage` takes it (default `latch`).

use clap::ValueEnum;
use rtl_gen::d2ma::writeback::DataPath;
use rtl_gen::d2ma::{D2maDesign, Storage, Unit};
use rtl_gen::rtl::verilog::emit;
use std::path::PathBuf;
use std::process::ExitCode;

/// The liberty file, as the QoR scripts use it.
const LIBERTY: &str = "../shared/pdk/nangate45_typ.lib.gz";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (out, target, storage) = match args.as_slice() {
        [out] => (PathBuf::from(out), None, None),
        [out, t] => (PathBuf::from(out), Some(t), None),
        [out, t, s] => (PathBuf::from(out), Some(t), Some(s)),
        _ => {
            eprintln!("usage: d2ma_data_path_qor OUT [TARGET_PS [STORAGE]]");
            return ExitCode::from(2);
        }
    };
    let target = match target.map(|t| (t, t.parse::<f64>())) {
        None => None,
        Some((_, Ok(t))) if t > 0.0 => Some(t),
        Some((t, _)) => {
            eprintln!("error: TARGET_PS '{t}' is not a positive delay in ps");
            return ExitCode::from(2);
        }
    };
    let storage = match storage.map(|s| (s, Storage::from_str(s, false))) {
        None => Storage::Latch,
        Some((_, Ok(style))) => style,
        Some((s, Err(_))) => {
            eprintln!("error: STORAGE '{s}' is not flip-flop, clock-gated or latch");
            return ExitCode::from(2);
        }
    };
    if out.exists() {
        eprintln!(
            "error: OUT '{}' exists: name a new folder (nothing is overwritten)",
            out.display()
        );
        return ExitCode::from(2);
    }
    // The paper's size; the data path of tests/d2ma_system.rs's `PAPER`:
    // 8-word fill beats of 4-byte words into 32 banks of 512 words, 4 MSHRs, 8 queued chunks.
    let design = D2maDesign::new(Unit::Engine, 8, 4, 128)
        .expect("the paper's size is valid")
        .with_storage(storage);
    let data = DataPath {
        fill_words: 8,
        word_bytes: 4,
        addr_bits: 14,
        mshrs: 4,
        chunks: 8,
    };
    let (top, subs) = rtl_gen::d2ma::engine::build_with(&design, Some(&data), vec![], &|_| vec![]);
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("error: OUT '{}': {e}", out.display());
        return ExitCode::FAILURE;
    }
    let mut files = Vec::new();
    for module in subs.iter().chain(std::iter::once(&top)) {
        let path = out.join(format!("{}.v", module.name()));
        if let Err(e) = std::fs::write(&path, emit(module)) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        files.push(path);
    }
    let request = synth::SynthRequest {
        files,
        top: top.name().to_string(),
        liberty: Some(PathBuf::from(LIBERTY)),
        work_dir: out.join("synth"),
    };
    let timing = synth::Timing {
        target_ps: target,
        static_inputs: Vec::new(),
    };
    match synth::synthesize_with(&request, &timing) {
        Ok(report) => {
            let slowest = report.path_from("flip-flops").map_or_else(
                || "no register-to-register path".to_string(),
                |p| {
                    format!(
                        "{:.1} ps register to register ({} -> {}, {} cells)",
                        p.delay_ps, p.start, p.end, p.cells
                    )
                },
            );
            println!(
                "{}: {:.1} um², {slowest}",
                top.name(),
                report.area_um2.unwrap_or(f64::NAN)
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
