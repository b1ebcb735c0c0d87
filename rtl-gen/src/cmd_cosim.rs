//! `rtl-gen cosim`: build and run a block's self-checking testbench.

use clap::Args;
use rtl_gen::{cosim, Error};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen cosim`.
#[derive(Args)]
#[command(after_help = "\
Examples:
  rtl-gen cosim out/hash_bvxor_n14_b32
  rtl-gen cosim out/hash_bvxor_n14_b32 --simulator iverilog --json

Exit status: 0 when every vector passed, 1 when some failed, 2 on an error.")]
pub struct CosimArgs {
    /// A block folder written by `rtl-gen hash`, `rap` or `d2ma`.
    dir: PathBuf,
    /// Simulator.
    #[arg(long, default_value = "verilator", value_parser = clap::builder::PossibleValuesParser::new(testbenches::simulator::SIMULATOR_NAMES))]
    simulator: String,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    quiet: crate::cli::QuietArg,
}

/// Runs `rtl-gen cosim`.
pub fn run(args: CosimArgs) -> Result<ExitCode, Error> {
    let spinner = args.quiet.spinner();
    spinner.set_message(format!(
        "{}: building and running its testbench under {}",
        args.dir.display(),
        args.simulator
    ));
    let result = cosim::run(&args.dir, &args.simulator);
    spinner.finish_and_clear();
    let (manifest, report) = result?;
    if args.json {
        let value = serde_json::json!({ "top": manifest.top, "report": report });
        println!("{value}");
    } else {
        for line in &report.mismatches {
            println!("{line}");
        }
        println!(
            "{}: {} {}: {} passed, {} failed (build {:.1} s, run {:.2} s)",
            manifest.top,
            report.simulator,
            report.simulator_version,
            report.passed,
            report.failed,
            report.build_seconds,
            report.run_seconds
        );
    }
    Ok(if report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
