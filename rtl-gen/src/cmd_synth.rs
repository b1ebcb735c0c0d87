//! `rtl-gen synth`: synthesize a generated block with Yosys and report its area and delay.

use clap::Args;
use rtl_gen::qor::{self, SYNTH_DIR, SYNTH_JSON};
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen synth`.
#[derive(Args)]
#[command(after_help = "\
Without --liberty (works with Yosys alone): cells in Yosys' gate library, a CMOS transistor
estimate (`stat -tech cmos`) and the logic depth in gates (`ltp`). With --liberty FILE (.lib or
.lib.gz): area in the library's unit (um^2) and ABC's critical-path delay in ps; registered
blocks also get the register-limited delay and the fmax it implies.

Writes <DIR>/synth.json (the report, the tool versions, the library and the command that
reproduces it); scripts, logs and the mapped netlist stay in <DIR>/synth/.

Examples:
  rtl-gen synth out/hash_bvxor_n14_b32
  rtl-gen synth out/hash_bvxor_n14_b32_cfg --liberty ../shared/pdk/nangate45_typ.lib.gz

Exit status: 0 on success, 2 on an error (no Yosys, unreadable liberty, design rejected).")]
pub struct SynthArgs {
    /// A block folder written by `rtl-gen hash`, `rap` or `d2ma`.
    dir: PathBuf,
    /// A liberty file (plain or gzipped) to map to; without it, Yosys' generic gates.
    #[arg(long)]
    liberty: Option<PathBuf>,
    /// Print synth.json instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
}

/// Runs `rtl-gen synth`.
pub fn run(args: SynthArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    let result = qor::synthesize_block(&args.dir, args.liberty.as_deref(), command)?;
    if args.json {
        print!("{}", result.to_json());
        return Ok(ExitCode::SUCCESS);
    }
    let parameters: Vec<String> = result
        .parameters
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    println!(
        "{}: {} {}{}; {}",
        result.top,
        result.variant,
        result.kind,
        if result.pipeline { ", registered" } else { "" },
        parameters.join(" "),
    );
    print!(
        "{}",
        synth::render_table(std::slice::from_ref(&result.report))
    );
    for line in result.provenance() {
        println!("{line}");
    }
    println!(
        "wrote {} (work files in {})",
        args.dir.join(SYNTH_JSON).display(),
        args.dir.join(SYNTH_DIR).display()
    );
    Ok(ExitCode::SUCCESS)
}
