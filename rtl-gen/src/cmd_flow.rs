//! `rtl-gen flow`: the default end-to-end run (generate, co-simulate, synthesize, tabulate).

use clap::Args;
use rtl_gen::hash::flow;
use rtl_gen::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rtl-gen flow`.
#[derive(Args)]
#[command(after_help = "\
Generates the paper's 32-bank designs (14 address bits: every kind fixed, every configurable
kind configurable), co-simulates each against the golden model, synthesizes each with Yosys and
prints one table.

Examples:
  rtl-gen flow
  rtl-gen flow --liberty ../shared/pdk/nangate45_typ.lib.gz --simulator iverilog --json

Exit status: 0 when every vector passed, 1 when some failed, 2 on an error.")]
pub struct FlowArgs {
    /// Output folder for the blocks.
    #[arg(long, default_value = "out/flow")]
    out: PathBuf,
    /// Simulator.
    #[arg(long, default_value = "verilator", value_parser = clap::builder::PossibleValuesParser::new(testbenches::simulator::SIMULATOR_NAMES))]
    simulator: String,
    /// A liberty file (plain or gzipped); without it, Yosys' generic gates.
    #[arg(long)]
    liberty: Option<PathBuf>,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    output: crate::output_args::OutputArgs,
    #[command(flatten)]
    quiet: crate::cli::QuietArg,
}

/// Runs `rtl-gen flow`.
pub fn run(args: FlowArgs, command: &str) -> Result<ExitCode, Error> {
    args.output.apply();
    let total = flow::designs().len();
    let mut done = 0;
    let rows = flow::run(
        &args.out,
        &args.simulator,
        args.liberty.as_deref(),
        command,
        |name| {
            done += 1;
            if !args.quiet.quiet {
                eprintln!("[{done}/{total}] {name}: generate, co-simulate, synthesize");
            }
        },
    )?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_else(|e| unreachable!("{e}"))
        );
    } else {
        print!("{}", flow::render(&rows));
        if let Some(first) = rows.first() {
            for line in first.synth.provenance() {
                println!("{line}");
            }
        }
    }
    let failed: usize = rows.iter().map(|r| r.cosim.failed).sum();
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
