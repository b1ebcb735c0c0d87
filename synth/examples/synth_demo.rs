//! Synthesizes the Verilog files given on the command line (top = first file's stem)
//! in generic mode and, when a liberty file is given with `--liberty`, in liberty mode,
//! then prints the table and the JSON report.
//!
//! `cargo run -p synth --example synth_demo -- [--liberty LIB] FILE.v...`

use std::path::PathBuf;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut files = Vec::new();
    let mut liberty = None;
    while let Some(a) = args.next() {
        if a == "--liberty" {
            liberty = Some(PathBuf::from(args.next().ok_or("--liberty needs a path")?));
        } else {
            files.push(PathBuf::from(a));
        }
    }
    let first = files.first().ok_or("give at least one Verilog file")?;
    let top = first
        .file_stem()
        .ok_or("file without a name")?
        .to_string_lossy()
        .into_owned();
    let mut reports = Vec::new();
    let modes = [None, liberty];
    for (i, lib) in modes.into_iter().enumerate() {
        if i > 0 && lib.is_none() {
            continue;
        }
        let req = synth::SynthRequest {
            files: files.clone(),
            top: top.clone(),
            liberty: lib,
            work_dir: std::env::temp_dir().join(format!("synth_demo_{top}_{i}")),
            macros: vec![],
        };
        let t = Instant::now();
        let r = synth::synthesize(&req)?;
        eprintln!(
            "{} mode: {:.2} s",
            r.mode.as_str(),
            t.elapsed().as_secs_f64()
        );
        reports.push(r);
    }
    print!("{}", synth::render_table(&reports));
    println!("{}", serde_json::to_string_pretty(reports.last().unwrap())?);
    Ok(())
}
